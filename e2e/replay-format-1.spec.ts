import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, ROOT, test, type Panel } from './panel-fixture.ts';

// A session written before echoes carried a kind (test/fixtures/sessions) still opens into the same
// cards: main upgrades its records once, as it reads them. The transcript's text was taken from the
// panel of that time and is compared whole.

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'sessions');
const SESSION = 'format-1-before-echo-kinds.jsonl';

/** Puts the fixture in the panel's sessions folder, made to belong to its workspace. */
async function installFixture(panel: Panel): Promise<void> {
  const lines = (await readFile(path.join(FIXTURES, SESSION), 'utf8')).split('\n');
  const header = JSON.parse(lines[0]!) as { workspace: string };
  lines[0] = JSON.stringify({ ...header, workspace: panel.workspace });
  const sessions = path.join(path.dirname(panel.workspace), 'sessions');
  await mkdir(sessions, { recursive: true });
  await writeFile(path.join(sessions, '20261201-120000-203303.jsonl'), lines.join('\n'));
}

test('a session of format 1 opens into the cards it showed when it was written', async ({ panel }) => {
  // Tall enough for the transcript to draw every row at once (it draws only what is in view).
  await panel.page.setViewportSize({ width: 1200, height: 16000 });
  await installFixture(panel);
  await panel.page.getByTestId('sessions-button').click();
  await panel.page
    .getByTestId('session-item')
    .filter({ hasText: 'Show me what the tools can do' })
    .getByTestId('session-open')
    .click();
  // The listing, the four reads and the search at the start are one step: one card, opened here.
  await panel.page.getByTestId('read-group-toggle').click();
  const cards = panel.page.getByTestId('tool-card');
  await expect(cards).toHaveCount(19);
  if (await panel.page.getByTestId('session-list').isVisible()) await panel.page.getByTestId('sessions-button').click();

  const card = (callId: string) => panel.page.locator(`[data-testid="tool-card"][data-call-id="${callId}"]`);
  await expect(card('toolu_read').getByTestId('read-range')).toHaveText('Lines 1–3 of 3');
  await expect(card('toolu_read').getByTestId('card-subtitle')).toHaveText('greet.ts');
  await expect(card('toolu_patch').getByTestId('patch-stats')).toContainText('+1 −1');
  await expect(card('toolu_exec_fail').getByTestId('exec-exit')).toHaveText('exit 2');
  await expect(card('toolu_exec_quiet').getByTestId('card-done')).toHaveText('✓ ok');
  await expect(card('toolu_code').getByTestId('code-trace-entry')).toHaveCount(3);

  const expected = await readFile(path.join(FIXTURES, 'format-1-before-echo-kinds.transcript.txt'), 'utf8');
  await expect.poll(() => panel.page.getByTestId('transcript').innerText()).toBe(expected);
  await panel.shot('replayed-format-1');
});
