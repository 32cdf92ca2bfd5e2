import { createHash } from 'node:crypto';
import { expect, type Panel } from './panel-fixture.ts';

// What the rewind specs start from: a write the person allowed, whose card offers the rewind.

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The card of the turn's call to `tool`. */
export const card = (panel: Panel, tool: string) =>
  panel.page.locator(`[data-testid="tool-card"][data-tool="${tool}"]`);

/** notes.md holds "one"; the model rewrites it to "two", the person allows it, and the turn ends. */
export async function allowedNotesWrite(panel: Panel): Promise<void> {
  await panel.write('notes.md', 'one\n');
  panel.script({
    steps: [
      {
        tool_calls: [
          {
            id: 'call_write',
            name: 'write_file',
            args: { path: 'notes.md', content: 'two\n', expected_sha256: sha256('one\n') },
          },
        ],
      },
      { text: ['Updated the notes.'] },
    ],
  });
  await panel.send('Update the notes');
  await card(panel, 'write_file').getByTestId('approve-once').click();
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Updated the notes.');
}
