import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FIXTURE } from '../test/mcp-servers.ts';
import { expect, test } from './panel-fixture.ts';
import { expectNoSideScroll, showSettings } from './screens.ts';

// The sandbox as the MCP servers screen shows it: each command server says whether it runs in the
// sandbox (with its rules) or outside (and why), and its switch changes that by keyboard — the
// person's own server put in, the workspace's taken out. And a command kept running in the
// background offers no preview on its approval, saying why.

async function configure(file: string, name: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify({ mcpServers: { [name]: { command: process.execPath, args: [FIXTURE] } } }));
}

for (const width of [1280, 420, 360]) {
  test(`shows each command server's sandbox and changes it by keyboard at ${width} px`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 860 });
    await configure(path.join(path.dirname(panel.workspace), 'home', 'mcp.json'), 'mine');
    await configure(path.join(panel.workspace, '.aethercodex', 'mcp.json'), 'theirs');
    await showSettings(panel);

    const mine = page.getByTestId('mcp-server-mine').getByTestId('mcp-sandbox');
    const theirs = page.getByTestId('mcp-server-theirs').getByTestId('mcp-sandbox');
    await expect(mine.getByTestId('mcp-sandbox-state')).toHaveText('not sandboxed');
    await expect(mine.getByTestId('mcp-sandbox-detail')).toContainText('Your own servers run outside the sandbox');
    await expect(theirs.getByTestId('mcp-sandbox-state')).toHaveText('sandboxed');
    await expect(theirs.getByTestId('mcp-sandbox-detail')).toContainText('writes the workspace');
    await expect(theirs.getByTestId('mcp-sandbox-detail')).toContainText('no network');

    await mine.getByTestId('mcp-sandbox-switch').focus();
    await page.keyboard.press('Space');
    await expect(mine.getByTestId('mcp-sandbox-state')).toHaveText('sandboxed');
    await expect(mine.getByTestId('mcp-sandbox-switch')).toBeChecked();
    await theirs.getByTestId('mcp-sandbox-switch').focus();
    await page.keyboard.press('Space');
    await expect(theirs.getByTestId('mcp-sandbox-state')).toHaveText('not sandboxed');
    await expect(theirs.getByTestId('mcp-sandbox-detail')).toContainText('You chose to run it outside the sandbox');

    if (width === 1280) {
      // Started now, the person's own server runs in the sandbox it was put in.
      await page.getByTestId('mcp-server-mine').getByTestId('mcp-restart').focus();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('mcp-server-mine').getByTestId('mcp-status')).toHaveText('ready');
    }
    await page.getByTestId('mcp-server-mine').scrollIntoViewIfNeeded();
    await panel.shot(`mcp-sandbox-${width}`);
    await expectNoSideScroll(page);
  });
}

test('a command kept running in the background offers no preview, and says why', async ({ panel }) => {
  const { page } = panel;
  await page.setViewportSize({ width: 420, height: 860 });
  panel.script({
    steps: [
      { tool_calls: [{ id: 'call_bg', name: 'exec', args: { command: 'npm run dev', background: true } }] },
      { text: ['Not started.'] },
    ],
  });
  await panel.send('Start the dev server');
  const card = page.locator('[data-testid="tool-card"][data-tool="exec"]').first();
  await expect(card.getByTestId('preview-unavailable')).toHaveText(
    'No preview: a command that keeps running in the background goes on changing things after it starts, which a run over a copy cannot show.',
  );
  await expect(card.getByTestId('preview-command')).toHaveCount(0);
  await panel.shot('preview-unavailable-420');
  await card.getByTestId('approve-deny').click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('Not started.');
});

test('a preview says what it is doing while it runs, then what the command would change', async ({ panel }) => {
  const { page } = panel;
  await page.setViewportSize({ width: 420, height: 860 });
  for (let index = 0; index < 20; index += 1) await panel.write(`src/file-${index}.txt`, `${index}\n`);
  // The command takes a while, so the running preview can be seen.
  const command = 'sleep 3 && echo made > made.txt';
  panel.script({
    steps: [{ tool_calls: [{ id: 'call_slow', name: 'exec', args: { command } }] }, { text: ['Done.'] }],
  });
  await panel.send('Make it, slowly');
  const card = page.locator('[data-testid="tool-card"][data-tool="exec"]').first();
  await card.getByTestId('preview-command').focus();
  await page.keyboard.press('Enter');
  await expect(card.getByTestId('preview-progress')).toHaveText('Running the command over the copy, in the sandbox…');
  await panel.shot('preview-progress-420');
  await expect(card.getByTestId('preview-summary')).toHaveText('Preview · 1 file would change · exit 0');
  await expect(card.getByTestId('preview-progress')).toHaveCount(0);
  await card.getByTestId('approve-deny').click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('Done.');
});
