import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { SessionLog } from '../main/session/session-log.ts';
import { SessionSink } from '../main/session/session-sink.ts';
import { holdSession } from '../test/session-holder.ts';
import { expect, test, type Panel } from './panel-fixture.ts';

// A session the panel cannot simply go on with says so above the transcript: damaged lines that
// were skipped (and where their bytes are), or another process writing it.

function sessionsOf(panel: Panel): string {
  // The fixture's AETHERCODEX_SESSIONS, beside the workspace.
  return path.join(path.dirname(panel.workspace), 'sessions');
}

async function answeredSession(panel: Panel, id: string, question: string): Promise<string> {
  const log = await SessionLog.create({ root: sessionsOf(panel), workspace: panel.workspace, model: 'compat:cli', id });
  const sink = new SessionSink(log, { emit: () => undefined });
  await sink.emit({ type: 'user_message', turn_id: 't1', text: question });
  await sink.emit({ type: 'turn_started', turn_id: 't1', model: 'compat:cli' });
  await sink.emit({ type: 'assistant_message', turn_id: 't1', text: 'An answer that survived.', tool_calls: [] });
  await sink.emit({
    type: 'turn_completed',
    turn_id: 't1',
    usage: { input_tokens: 1, output_tokens: 1 },
    stop_reason: 'end_turn',
  });
  await log.close();
  return log.file;
}

async function openFromList(panel: Panel, title: string): Promise<void> {
  await panel.page.getByTestId('sessions-button').click();
  await panel.page.getByTestId('session-item').filter({ hasText: title }).getByTestId('session-open').click();
}

test('opening a damaged session says how many lines were skipped and where their bytes are', async ({ panel }) => {
  const file = await answeredSession(panel, 'damaged-e2e', 'A question before the damage');
  const torn = '{"kind":"event","event":{"type":"user_mes';
  await appendFile(file, `not a record at all\n${torn}`);

  await openFromList(panel, 'A question before the damage');
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('An answer that survived.');
  const notice = panel.page.getByTestId('session-notice');
  await expect(notice).toBeVisible();
  await expect(notice.locator('[data-kind="damaged"]')).toContainText('1 line could not be read and was skipped');
  await expect(notice).toContainText(
    `its last line was cut off mid-write (${torn.length} bytes, moved to ${file}.corrupt)`,
  );
  await panel.shot('damaged-session-notice');

  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
});

test('opening a session another process is writing shows it read-only, naming that process', async ({ panel }) => {
  await answeredSession(panel, 'held-e2e', 'A question someone else goes on with');
  const holder = await holdSession(sessionsOf(panel), 'held-e2e');
  try {
    await openFromList(panel, 'A question someone else goes on with');
    await expect(panel.page.getByTestId('message-assistant').last()).toContainText('An answer that survived.');
    const notice = panel.page.getByTestId('session-notice').locator('[data-kind="read_only"]');
    await expect(notice).toContainText(`open in another process (pid ${holder.pid}`);
    await expect(notice).toContainText('shown read-only');
  } finally {
    await holder.close();
  }
});
