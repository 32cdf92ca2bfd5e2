import { createHash } from 'node:crypto';
import { expect, test, type Panel } from './panel-fixture.ts';

// The Changes card at the end of a turn, at a desktop width and at a narrow panel's: it lists the
// files the turn's write and command changed with their counts, shows a diff from the keyboard,
// reverts one file (checked on disk), and asks about a file the person changed before reverting all.

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const card = (panel: Panel, tool: string) => panel.page.locator(`[data-testid="tool-card"][data-tool="${tool}"]`);

for (const width of [1280, 420]) {
  test(`lists a turn's changed files, expands a diff and reverts one file (${width} px)`, async ({ panel }) => {
    await panel.page.setViewportSize({ width, height: 860 });
    await panel.write('notes.md', 'one\nkeep\n');
    panel.script({
      steps: [
        {
          tool_calls: [
            {
              id: 'call_write',
              name: 'write_file',
              args: { path: 'notes.md', content: 'two\nkeep\n', expected_sha256: sha256('one\nkeep\n') },
            },
          ],
        },
        { tool_calls: [{ id: 'call_exec', name: 'exec', args: { command: "printf 'a\\nb\\n' > made.txt" } }] },
        { text: ['Done both.'] },
      ],
    });
    await panel.send('Change the notes and make a file');
    await card(panel, 'write_file').getByTestId('approve-once').click();
    await card(panel, 'exec').getByTestId('approve-once').click();
    await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Done both.');

    const changes = panel.page.getByTestId('changes-card');
    await expect(changes).toContainText('Changes · 2 files');
    const files = changes.getByTestId('changes-file');
    await expect(files).toHaveCount(2);
    const notes = changes.locator('[data-testid="changes-file"][data-path="notes.md"]');
    const made = changes.locator('[data-testid="changes-file"][data-path="made.txt"]');
    await expect(notes.getByTestId('changes-counts')).toContainText('+1 −1');
    await expect(made.getByTestId('changes-counts')).toContainText('+2 −0');

    // Keyboard: the file's toggle opens its diff.
    await notes.getByTestId('changes-toggle').focus();
    await panel.page.keyboard.press('Enter');
    await expect(notes.getByTestId('changes-toggle')).toHaveAttribute('aria-expanded', 'true');
    await expect(notes.getByTestId('patch-diff')).toContainText('two');
    await expect(notes.getByTestId('patch-diff')).toContainText('one');
    await panel.shot(`changes-card-${width}`);

    await notes.getByTestId('changes-revert-file').click();
    await expect(changes.getByTestId('changes-result')).toContainText('Reverted: restored notes.md.');
    await expect(notes.getByTestId('changes-reverted')).toBeVisible();
    expect(await panel.read('notes.md')).toBe('one\nkeep\n');
    expect(await panel.read('made.txt')).toBe('a\nb\n');

    // The list comes from the turn's checkpoints: a reload shows the same card.
    await panel.page.reload();
    await expect(changes.getByTestId('changes-file')).toHaveCount(2);
    await expect(notes.getByTestId('changes-counts')).toContainText('+1 −1');
    await expect(notes.getByTestId('changes-reverted')).toBeVisible();

    // The person edits the command's file; Revert all asks before touching it, and keeps theirs.
    await panel.write('made.txt', 'mine\n');
    await changes.getByTestId('changes-revert-all').click();
    const conflict = changes.locator('[data-testid="rewind-conflict"][data-path="made.txt"]');
    await expect(conflict).toContainText('Remove it (it was not there)');
    await expect(changes.getByTestId('changes-conflicts-confirm')).toBeDisabled();
    await conflict.getByTestId('conflict-keep').check();
    await changes.getByTestId('changes-conflicts-confirm').click();
    await expect(changes.getByTestId('changes-result')).toContainText('kept your made.txt');
    expect(await panel.read('made.txt')).toBe('mine\n');
    expect(await panel.read('notes.md')).toBe('one\nkeep\n');
    await expect(made.getByTestId('changes-changed-since')).toBeVisible();
  });

  test(`reverts one hunk of a file and leaves the other (${width} px)`, async ({ panel }) => {
    await panel.page.setViewportSize({ width, height: 860 });
    const lines = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`);
    const before = `${lines.join('\n')}\n`;
    const after = `${lines.map((line, index) => (index === 1 || index === 25 ? `${line} changed` : line)).join('\n')}\n`;
    await panel.write('long.txt', before);
    panel.script({
      steps: [
        {
          tool_calls: [
            {
              id: 'call_long',
              name: 'write_file',
              args: { path: 'long.txt', content: after, expected_sha256: sha256(before) },
            },
          ],
        },
        { text: ['Changed two lines.'] },
      ],
    });
    await panel.send('Change lines 2 and 26');
    await card(panel, 'write_file').getByTestId('approve-once').click();
    await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Changed two lines.');

    const file = panel.page.locator('[data-testid="changes-file"][data-path="long.txt"]');
    await file.getByTestId('changes-toggle').click();
    const hunks = file.getByTestId('changes-revert-hunk');
    await expect(hunks).toHaveCount(2);
    await panel.shot(`changes-hunks-${width}`);
    await hunks.nth(1).click();
    await expect(panel.page.getByTestId('changes-result')).toContainText('Reverted hunk 2 of long.txt.');
    const expected = `${lines.map((line, index) => (index === 1 ? `${line} changed` : line)).join('\n')}\n`;
    expect(await panel.read('long.txt')).toBe(expected);
  });
}
