import { createHash } from 'node:crypto';
import { expect, test, type Panel } from './panel-fixture.ts';

// A code rewind's card is written to the session: after a reload it is still there, and its
// "Undo rewind" still works (the checkpoint it took first is kept), at a desktop width and a
// narrow panel's.

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const card = (panel: Panel, tool: string) => panel.page.locator(`[data-testid="tool-card"][data-tool="${tool}"]`);

for (const width of [1280, 420]) {
  test(`a reloaded session still shows the rewind's card, and Undo works from it (${width} px)`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 860 });
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
    await expect(page.getByTestId('message-assistant').last()).toContainText('Updated the notes.');

    await card(panel, 'write_file').getByTestId('rewind-button').click();
    await page.getByTestId('rewind-code').click();
    const dialog = page.getByTestId('rewind-dialog');
    await dialog.getByTestId('rewind-confirm').click();
    await expect(dialog).toHaveCount(0);
    expect(await panel.read('notes.md')).toBe('one\n');
    const left = page.getByTestId('rewind-card');
    await expect(left).toHaveText(/Code rewound to before write_file notes\.md: 1 restored, 0 removed\./);

    await page.reload();
    await expect(card(panel, 'write_file')).toHaveCount(1);
    await expect(left).toHaveCount(1);
    await expect(left).toContainText('Code rewound to before write_file notes.md: 1 restored, 0 removed.');
    await panel.shot(`rewind-card-reloaded-${width}`);
    // Keyboard: Undo rewind, then the dialog's Rewind.
    await left.getByTestId('rewind-undo').focus();
    await page.keyboard.press('Enter');
    await expect(dialog.getByTestId('rewind-restore')).toHaveText('notes.md');
    await dialog.getByTestId('rewind-confirm').click();
    await expect(dialog).toHaveCount(0);
    expect(await panel.read('notes.md')).toBe('two\n');
    await expect(left).toContainText('Undone: Code rewound');
    await expect(left.getByTestId('rewind-undo')).toHaveCount(0);

    // Still one card, marked undone, after another reload.
    await page.reload();
    await expect(left).toHaveCount(1);
    await expect(left).toContainText('Undone: Code rewound');
  });
}
