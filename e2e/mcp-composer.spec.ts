import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FIXTURE } from '../test/mcp-servers.ts';
import { expect, test, type Panel } from './panel-fixture.ts';
import { expectNoSideScroll } from './screens.ts';

// A running MCP server (the fixture, over stdio) in the composer, by keyboard: its prompt is the
// slash command /mcp__fixture__release-notes (or its short form /fixture:release-notes), which its
// server makes into the message from the arguments typed after it; `@` offers its resource with the workspace's files, and the resource's text goes
// to the model after the message.

async function useFixture(panel: Panel): Promise<void> {
  const home = path.join(path.dirname(panel.workspace), 'home');
  await mkdir(home, { recursive: true });
  await writeFile(
    path.join(home, 'mcp.json'),
    JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [FIXTURE] } } }),
  );
}

/** The text of the last user message the model was sent. */
function lastUserText(panel: Panel): string {
  const body = panel.model.requests.at(-1)?.body as { messages?: { role: string; content: unknown }[] } | undefined;
  const user = body?.messages?.filter((message) => message.role === 'user').at(-1);
  if (!user) return '';
  return typeof user.content === 'string' ? user.content : JSON.stringify(user.content);
}

for (const width of [1280, 420]) {
  test(`an MCP prompt runs as a slash command and an MCP resource is attached with @ at ${width} px`, async ({
    panel,
  }) => {
    test.setTimeout(60_000);
    const { page } = panel;
    await page.setViewportSize({ width, height: 860 });
    await useFixture(panel);
    panel.script({ steps: [{ text: ['Hello.'] }, { text: ['Notes written.'] }, { text: ['Summarised.'] }] });
    // The session's first message starts its MCP servers.
    await panel.send('Hello');
    await expect(page.getByTestId('message-assistant').last()).toContainText('Hello.');

    const input = page.getByTestId('composer-input');
    await input.focus();
    await page.keyboard.type('/mcp__fixture__rel');
    const menu = page.getByTestId('completion-menu');
    const option = menu.getByTestId('completion-option').first();
    await expect(option).toContainText('/mcp__fixture__release-notes <version> [tone]');
    await expect(option).toContainText('MCP prompt');
    await panel.shot(`mcp-prompt-menu-${width}`);
    await page.keyboard.press('Tab');
    await expect(input).toHaveValue('/mcp__fixture__release-notes ');
    await page.keyboard.type('2.4.0 warm');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('message-assistant').last()).toContainText('Notes written.');
    expect(lastUserText(panel)).toContain('Write the release notes for 2.4.0 in a warm tone.');

    // A required argument left out (typed in the short form): the composer says what the prompt
    // takes, and nothing is sent.
    await page.keyboard.type('/fixture:release-notes');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await expect(page.getByText('/mcp__fixture__release-notes needs version.')).toBeVisible();
    await expect(input).toHaveValue('/fixture:release-notes');
    await input.fill('');

    await page.keyboard.type('Summarise @chang');
    const resource = menu.getByTestId('completion-option').filter({ hasText: 'fixture:Changelog' });
    await expect(resource).toContainText('MCP resource');
    await panel.shot(`mcp-resource-menu-${width}`);
    await expectNoSideScroll(page);
    await page.keyboard.press('Tab');
    await expect(input).toHaveValue('Summarise @fixture:Changelog ');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('message-assistant').last()).toContainText('Summarised.');
    const sent = lastUserText(panel);
    expect(sent).toContain('Summarise @fixture:Changelog');
    expect(sent).toContain('<mcp_resource server="fixture" uri="fixture://notes/changelog.md" type="text/markdown">');
    expect(sent).toContain('- 2.4.0: forms in the panel');
    await panel.shot(`mcp-resource-sent-${width}`);
  });
}
