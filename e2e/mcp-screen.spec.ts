import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FIXTURE } from '../test/mcp-servers.ts';
import { expect, test } from './panel-fixture.ts';
import { expectNoSeriousViolations, expectNoSideScroll, showSettings } from './screens.ts';

// The MCP servers screen in Settings: a server of the person's own starts from its Start button and
// lists its tools; a tool set to Deny is refused when the model calls it; a workspace server waits,
// showing the command it would run, until "Approve and start". All by keyboard, at both widths.

async function configure(file: string, name: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify({ mcpServers: { [name]: { command: process.execPath, args: [FIXTURE] } } }));
}

for (const width of [1280, 420]) {
  test(`the MCP servers screen starts, configures and approves servers at ${width} px`, async ({ panel }) => {
    // Two MCP server processes start in this test.
    test.setTimeout(120_000);
    const { page } = panel;
    await page.setViewportSize({ width, height: 860 });
    await configure(path.join(path.dirname(panel.workspace), 'home', 'mcp.json'), 'mine');
    await configure(path.join(panel.workspace, '.aethercodex', 'mcp.json'), 'theirs');
    await showSettings(panel);

    const mine = page.getByTestId('mcp-server-mine');
    const theirs = page.getByTestId('mcp-server-theirs');
    await expect(mine.getByTestId('mcp-status')).toHaveText('stopped');
    await expect(theirs.getByTestId('mcp-status')).toHaveText('waiting for your approval');
    await expect(theirs).toContainText(FIXTURE);

    // Start by keyboard.
    await mine.getByTestId('mcp-restart').focus();
    await page.keyboard.press('Enter');
    await expect(mine.getByTestId('mcp-status')).toHaveText('ready');
    const tool = mine.getByTestId('mcp-tool-adds-a-tool');
    await expect(tool).toBeVisible();
    await tool.getByTestId('mcp-tool-policy').selectOption('deny');
    await expect(tool.getByTestId('mcp-tool-policy')).toHaveValue('deny');

    await theirs.getByTestId('mcp-approve').click();
    await expect(theirs.getByTestId('mcp-status')).toHaveText('ready');
    await expect(theirs.getByTestId('mcp-tool-exits')).toBeVisible();
    await mine.scrollIntoViewIfNeeded();
    await panel.shot(`mcp-screen-${width}`);
    await expectNoSideScroll(page);
    await expectNoSeriousViolations(page, '[data-testid="mcp-servers"]');

    // The model's call of the denied tool is refused by the gate, naming the screen.
    await page.getByTestId('settings-close').click();
    panel.script({
      steps: [{ tool_calls: [{ id: 'call_1', name: 'mcp__mine__adds-a-tool', args: {} }] }, { text: ['Refused.'] }],
    });
    await panel.send('Add a tool');
    const card = page.locator('[data-testid="tool-card"][data-tool="mcp__mine__adds-a-tool"]');
    await expect(card).toHaveAttribute('data-state', 'error', { timeout: 30_000 });
    await expect(card).toContainText('on the MCP servers screen');
    await expect(page.getByTestId('message-assistant').last()).toContainText('Refused.');
  });
}
