import path from 'node:path';
import { SessionLog } from '../main/session/session-log.ts';
import { SessionSink } from '../main/session/session-sink.ts';
import { expect, test } from './panel-fixture.ts';

// Sessions are durable: a reopened session, and a reloaded window, show the same cards. The list
// is read again whenever it opens, so a session another writer (the CLI) added shows up.

test('reopening a session shows the same cards', async ({ panel }) => {
  await panel.write('notes/plan.md', '# Plan\n\n- first\n- second\n');
  panel.script({
    steps: [
      { tool_calls: [{ id: 'call_read', name: 'read_file', args: { path: 'notes/plan.md' } }] },
      { tool_calls: [{ id: 'call_echo', name: 'exec', args: { command: 'echo remembered-output' } }] },
      { text: ['The command printed its line.'] },
    ],
  });
  await panel.send('Echo a line');
  const read = panel.page.locator('[data-testid="tool-card"][data-tool="read_file"]');
  const card = panel.page.locator('[data-testid="tool-card"][data-tool="exec"]');
  await card.getByTestId('approve-once').click();
  await expect(card.getByTestId('exec-output')).toContainText('remembered-output');
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('The command printed its line.');
  // The answer's text arrives before the turn ends: read the transcript once its row no longer says it runs.
  await expect(panel.page.getByTestId('composer-stop')).toBeHidden();
  const before = await panel.page.getByTestId('transcript').innerText();

  await panel.page.getByTestId('sessions-button').click();
  await panel.page.getByTestId('session-new').click();
  await expect(panel.page.getByTestId('tool-card')).toHaveCount(0);

  // Starting a session may close the list; open it again to pick the old one.
  if (!(await panel.page.getByTestId('session-list').isVisible()))
    await panel.page.getByTestId('sessions-button').click();
  const item = panel.page.getByTestId('session-item').filter({ hasText: 'Echo a line' });
  await item.getByTestId('session-open').click();
  await expect(card.getByTestId('exec-output')).toContainText('remembered-output');
  await expect(card.getByTestId('card-subtitle')).toHaveText(/echo remembered-output/);
  await expect(read.getByTestId('card-subtitle')).toHaveText('plan.md');
  await expect(read.getByTestId('code-line')).toHaveCount(4);
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('The command printed its line.');
  if (await panel.page.getByTestId('session-list').isVisible()) await panel.page.getByTestId('sessions-button').click();
  await expect.poll(() => panel.page.getByTestId('transcript').innerText()).toBe(before);
  await panel.shot('reopened-session');

  await panel.page.reload();
  await expect(card.getByTestId('exec-output')).toContainText('remembered-output');
  await expect.poll(() => panel.page.getByTestId('transcript').innerText()).toBe(before);
});

test('opening the session list shows a session written since by another writer', async ({ panel }) => {
  await panel.page.getByTestId('sessions-button').click();
  await expect(panel.page.getByTestId('session-list')).toBeVisible();
  await expect(panel.page.getByTestId('session-item')).toHaveCount(0);
  await panel.page.getByTestId('sessions-button').click();

  // The CLI writes sessions to the same folder (the fixture's AETHERCODEX_SESSIONS, beside the workspace).
  const log = await SessionLog.create({
    root: path.join(path.dirname(panel.workspace), 'sessions'),
    workspace: panel.workspace,
    model: 'compat:cli',
  });
  const sink = new SessionSink(log, { emit: () => undefined });
  await sink.emit({ type: 'user_message', turn_id: 'turn_cli', text: 'Asked from the command line' });
  await sink.emit({ type: 'turn_started', turn_id: 'turn_cli', model: 'compat:cli' });
  await sink.emit({
    type: 'assistant_message',
    turn_id: 'turn_cli',
    text: 'Answered in the terminal.',
    tool_calls: [],
  });
  await sink.emit({
    type: 'turn_completed',
    turn_id: 'turn_cli',
    usage: { input_tokens: 3, output_tokens: 4 },
    stop_reason: 'end_turn',
  });
  await log.close();

  await panel.page.getByTestId('sessions-button').click();
  const item = panel.page.getByTestId('session-item').filter({ hasText: 'Asked from the command line' });
  await expect(item).toBeVisible();
  await item.getByTestId('session-open').click();
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Answered in the terminal.');
});
