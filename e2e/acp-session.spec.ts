import path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { startAcpAgent } from '../test/acp-agent-process.ts';
import { expect, test, type Panel } from './panel-fixture.ts';

// A session made by an editor over ACP (`aether acp`, driven here by the SDK's client) is an
// ordinary session: the panel lists it and opens it with the same cards as any other.

/** The demo's whole turn over ACP, each question allowed, kept in the panel's sessions folder. */
async function sessionOverAcp(panel: Panel): Promise<void> {
  const sessions = path.join(path.dirname(panel.workspace), 'sessions');
  const agent = startAcpAgent(['--model', 'demo', '--sessions', sessions], {
    AETHERCODEX_HOME: path.join(path.dirname(panel.workspace), 'acp-home'),
  });
  const client = acp
    .client({ name: 'e2e' })
    .onRequest('session/request_permission', async () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }))
    .onNotification('session/update', () => undefined)
    .connect(agent.stream).agent;
  await client.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await client.request('session/new', { cwd: panel.workspace, mcpServers: [] });
  const done = await client.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: 'Show me the demo from my editor' }],
  });
  expect(done.stopReason).toBe('end_turn');
  agent.child.stdin!.end();
  expect(await agent.exited).toBe(0);
}

for (const width of [1280, 420]) {
  test(`a session made over ACP opens in the panel with its cards (${width} px)`, async ({ panel }) => {
    await panel.page.setViewportSize({ width, height: 1400 });
    await sessionOverAcp(panel);
    await panel.page.getByTestId('sessions-button').click();
    await panel.page
      .getByTestId('session-item')
      .filter({ hasText: 'Show me the demo from my editor' })
      .getByTestId('session-open')
      .click();
    if (await panel.page.getByTestId('session-list').isVisible())
      await panel.page.getByTestId('sessions-button').click();
    const cards = panel.page.getByTestId('tool-card');
    await expect(cards).toHaveCount(4);
    await expect(cards.nth(3).getByTestId('patch-stats')).toContainText('+1 −1');
    await expect(panel.page.getByTestId('transcript')).toContainText(
      'Patched: AETHER_DEMO.md now says it was patched.',
    );
    await panel.shot(`acp-session-${width}`);
  });
}
