import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FIXTURE } from '../test/mcp-servers.ts';
import { expect, test } from './panel-fixture.ts';

// An MCP server's tool in the panel: the approval names the server, the tool and the arguments; the
// card shows the server's progress live; Stop cancels the call, and the server itself receives the
// cancellation (its own log says so).

test('an MCP call asks naming the server, shows live progress, and Stop cancels it on the server', async ({
  panel,
}) => {
  // The fixture's home is next to its workspace; mcp.json must be there before the first session.
  const home = path.join(path.dirname(panel.workspace), 'home');
  const log = path.join(path.dirname(panel.workspace), 'fixture.log');
  await mkdir(home, { recursive: true });
  await writeFile(
    path.join(home, 'mcp.json'),
    JSON.stringify({
      mcpServers: { fixture: { command: process.execPath, args: [FIXTURE], env: { MCP_FIXTURE_LOG: log } } },
    }),
  );
  panel.script({
    steps: [
      { tool_calls: [{ id: 'call_mcp', name: 'mcp__fixture__counts-until-stopped', args: {} }] },
      { text: ['It was stopped.'] },
    ],
  });
  await panel.send('Count until I stop you');

  const card = panel.page.locator('[data-testid="tool-card"][data-tool="mcp__fixture__counts-until-stopped"]');
  await expect(card.getByTestId('approval-detail')).toContainText('MCP server: fixture');
  await expect(card.getByTestId('approval-detail')).toContainText('Tool: counts-until-stopped');
  await panel.shot('mcp-approval');
  await card.getByTestId('approve-once').click();

  await expect(card.getByTestId('mcp-progress')).toContainText(/\d+\/1000 step \d+/);
  await expect(card.getByTestId('mcp-progress')).toContainText(/^(\d+\/1000 step \d+\n?){6}$/);
  await panel.shot('mcp-progress');
  await panel.page.setViewportSize({ width: 420, height: 800 });
  await panel.shot('mcp-progress-420');
  await card.getByTestId('card-stop').click();
  await expect(card).toHaveAttribute('data-state', 'error');
  await expect.poll(async () => readFile(log, 'utf8').catch(() => '')).toMatch(/^cancelled \S+$/m);
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('It was stopped.');
});
