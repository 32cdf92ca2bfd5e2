import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startOAuthServer, type OAuthServer } from '../test/oauth-server.ts';
import { expect, test } from './panel-fixture.ts';
import { expectNoSeriousViolations, expectNoSideScroll, showSettings } from './screens.ts';

// A remote MCP server behind OAuth, with its authorization server on loopback: started from the
// MCP servers screen it asks for a sign-in and opens no browser by itself; Sign in (by keyboard)
// opens the authorization page in a new tab, which grants and sends the browser back to the
// loopback redirect; the server is then ready with its tools, the token never on the page nor in
// mcp.json. Sign out forgets the tokens and the server asks again.

let auth: OAuthServer | null = null;

test.afterEach(async () => {
  await auth?.close();
  auth = null;
});

// The web host's page opens the authorization page in a tab this browser has; the desktop app
// hands it to the system's browser (main/electron/links.ts, its own test), which no spec can follow.
const widths = process.env['AETHER_E2E_TARGET'] === 'electron' ? [] : [1280, 420];

for (const width of widths) {
  test(`Sign in on the MCP servers screen runs the OAuth sign-in, and Sign out forgets it, at ${width} px`, async ({
    panel,
  }) => {
    test.setTimeout(90_000);
    const { page } = panel;
    await page.setViewportSize({ width, height: 860 });
    auth = await startOAuthServer();
    const file = path.join(path.dirname(panel.workspace), 'home', 'mcp.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ mcpServers: { guarded: { url: auth.url } } }));
    await showSettings(panel);

    const guarded = page.getByTestId('mcp-server-guarded');
    await guarded.getByTestId('mcp-restart').focus();
    await page.keyboard.press('Enter');
    await expect(guarded.getByTestId('mcp-status')).toHaveText('failed');
    await expect(guarded.getByTestId('mcp-failure')).toHaveText(
      'The MCP server "guarded" needs a sign-in (OAuth). Press Sign in for it on the MCP servers screen (Settings).',
    );
    // Starting it asked for a sign-in but sent nobody to the authorization page.
    expect(auth.authorizations).toBe(0);
    await expect(guarded.getByTestId('mcp-sign-in-status')).toHaveText('This server needs you to sign in (OAuth).');
    await guarded.scrollIntoViewIfNeeded();
    await panel.shot(`mcp-sign-in-needed-${width}`);

    const tab = page.context().waitForEvent('page');
    await guarded.getByTestId('mcp-sign-in-button').focus();
    await page.keyboard.press('Enter');
    const opened = await tab;
    await expect(guarded.getByTestId('mcp-status')).toHaveText('ready', { timeout: 30_000 });
    await expect(guarded.getByTestId('mcp-sign-in-status')).toHaveText('signed in');
    await expect(guarded.getByTestId('mcp-tool-whoami')).toBeVisible();
    await expect(guarded.getByTestId('mcp-failure')).toHaveCount(0);
    expect(auth.authorizations).toBe(1);
    // The tab came back to the loopback redirect, which said so.
    await expect(opened.locator('body')).toContainText('Signed in. You can close this tab');
    await opened.close();

    const token = auth.issued[0]!;
    expect(token).toMatch(/^tok-/);
    expect(await page.content()).not.toContain(token);
    expect(await readFile(file, 'utf8')).not.toContain(token);
    await guarded.scrollIntoViewIfNeeded();
    await panel.shot(`mcp-sign-in-done-${width}`);
    await expectNoSideScroll(page);
    await expectNoSeriousViolations(page, '[data-testid="mcp-servers"]');

    await guarded.getByTestId('mcp-sign-out').focus();
    await page.keyboard.press('Enter');
    await expect(guarded.getByTestId('mcp-sign-in-button')).toBeVisible();
    await expect(guarded.getByTestId('mcp-status')).toHaveText('stopped');
    await expect(guarded.getByTestId('mcp-tool-whoami')).toHaveCount(0);
    // Started again without tokens, it asks again and opens nothing.
    await guarded.getByTestId('mcp-restart').focus();
    await page.keyboard.press('Enter');
    await expect(guarded.getByTestId('mcp-status')).toHaveText('failed');
    expect(auth.authorizations).toBe(1);
  });
}
