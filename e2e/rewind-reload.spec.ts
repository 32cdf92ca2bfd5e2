import { expect, test } from './panel-fixture.ts';
import { allowedNotesWrite, card } from './rewind-setup.ts';

// A code rewind's card is written to the session: after a reload it is still there, and its
// "Undo rewind" still works (the checkpoint it took first is kept), at a desktop width and a
// narrow panel's.

for (const width of [1280, 420]) {
  test(`a reloaded session still shows the rewind's card, and Undo works from it (${width} px)`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 860 });
    await allowedNotesWrite(panel);

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
