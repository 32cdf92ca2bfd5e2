import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startRemoteEverything, type RemoteEverything } from '../test/mcp-remote-server.ts';
import { expect, test } from './panel-fixture.ts';
import { expectNoSeriousViolations, expectNoSideScroll, showSettings } from './screens.ts';

// A remote MCP server (server-everything over streamable HTTP, behind a proxy that wants a bearer
// token) whose Authorization header names a secret: with the secret in the host's environment it
// connects, showing only that the secret is set; a server whose secret nothing provides fails,
// naming the variable to set. The token never reaches the page.

const TOKEN = 'tok-e2e-4b7d1a09c3';
// The web host started for this spec inherits this process's environment.
process.env['AETHER_E2E_HOSTED_TOKEN'] = TOKEN;

let remote: RemoteEverything | null = null;

test.afterEach(async () => {
  await remote?.close();
  remote = null;
});

for (const width of [1280, 420]) {
  test(`the MCP servers screen shows a header secret as set or missing, never its value, at ${width} px`, async ({
    panel,
  }) => {
    test.setTimeout(90_000);
    const { page } = panel;
    await page.setViewportSize({ width, height: 860 });
    remote = await startRemoteEverything(TOKEN);
    const file = path.join(path.dirname(panel.workspace), 'home', 'mcp.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          hosted: { url: remote.url, headers: { Authorization: 'Bearer ${secret:AETHER_E2E_HOSTED_TOKEN}' } },
          locked: { url: remote.url, headers: { Authorization: 'Bearer ${secret:AETHER_E2E_MISSING_TOKEN}' } },
        },
      }),
    );
    await showSettings(panel);

    const hosted = page.getByTestId('mcp-server-hosted');
    const locked = page.getByTestId('mcp-server-locked');
    await expect(hosted.getByTestId('mcp-secret-AETHER_E2E_HOSTED_TOKEN').getByTestId('mcp-secret-status')).toHaveText(
      'set',
    );
    await expect(locked.getByTestId('mcp-secret-AETHER_E2E_MISSING_TOKEN').getByTestId('mcp-secret-status')).toHaveText(
      'not set',
    );

    // Start by keyboard: the token travels in the header and the proxy lets the client through.
    await hosted.getByTestId('mcp-restart').focus();
    await page.keyboard.press('Enter');
    await expect(hosted.getByTestId('mcp-status')).toHaveText('ready', { timeout: 30_000 });
    await expect(hosted.getByTestId('mcp-tool-get-sum')).toBeVisible();

    await locked.getByTestId('mcp-restart').click();
    await expect(locked.getByTestId('mcp-status')).toHaveText('failed', { timeout: 30_000 });
    await expect(locked.getByTestId('mcp-failure')).toContainText(
      'needs the secret AETHER_E2E_MISSING_TOKEN, named in',
    );
    await expect(locked.getByTestId('mcp-failure')).toContainText('AETHER_E2E_MISSING_TOKEN');
    // The locked server was never sent a request without its token.
    expect(remote.refused).toEqual([]);

    expect(await page.content()).not.toContain(TOKEN);
    await locked.scrollIntoViewIfNeeded();
    await panel.shot(`mcp-secrets-${width}`);
    await expectNoSideScroll(page);
    await expectNoSeriousViolations(page, '[data-testid="mcp-servers"]');
  });
}
