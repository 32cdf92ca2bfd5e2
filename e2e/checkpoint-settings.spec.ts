import { expect, test } from './panel-fixture.ts';

// The checkpoint settings, at a desktop width and a narrow panel's, by keyboard: the storage limit
// refuses a value out of bounds with a message and keeps the old one, a good value is saved, and
// turning checkpoints off says what that costs; both survive a reload, and a write made while they
// are off has a card that says its code cannot be rewound, and why.

for (const width of [1280, 420]) {
  test(`checkpoints can be turned off and their storage bounded, by keyboard (${width} px)`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 860 });
    await page.getByTestId('settings-button').click();
    const enabled = page.getByTestId('checkpoints-enabled');
    const storage = page.getByTestId('checkpoint-storage-input');
    const storageNote = page.getByTestId('checkpoint-storage-note');
    await expect(enabled).toBeChecked();
    await expect(page.getByTestId('checkpoints-note')).toContainText('so any card can be rewound');
    await expect(storage).toHaveValue('2048');
    await expect(storageNote).toContainText("a session's oldest checkpoints are removed");

    // Too small: refused with what is allowed, and the field goes back to the saved value.
    await storage.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('8');
    await page.keyboard.press('Enter');
    await expect(storageNote).toHaveText('Give a whole number of MiB from 16 to 1048576; it stays at 2048 MiB.');
    await expect(storageNote).toHaveAttribute('role', 'alert');
    await expect(storage).toHaveValue('2048');

    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('512');
    await page.keyboard.press('Shift+Tab');
    await expect(storageNote).toContainText("a session's oldest checkpoints are removed");
    await expect(storage).toHaveValue('512');

    // The largest file a checkpoint keeps: refused past 1024 MiB, saved otherwise.
    const fileLimit = page.getByTestId('checkpoint-max-file-input');
    await expect(fileLimit).toHaveValue('50');
    await fileLimit.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('4096');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('checkpoint-max-file-note')).toHaveText(
      'Give a whole number of MiB from 1 to 1024; it stays at 50 MiB.',
    );
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('8');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('checkpoint-max-file-note')).toContainText('recorded by its hash only');

    // Off, with Space on the focused checkbox.
    await enabled.focus();
    await page.keyboard.press('Space');
    await expect(enabled).not.toBeChecked();
    await expect(page.getByTestId('checkpoints-note')).toHaveText(
      'Off: writes and commands run without a checkpoint, and their cards cannot be rewound.',
    );
    await expect(storage).toBeDisabled();
    // Nothing spills out of a narrow panel.
    const box = await storageNote.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual(width);
    await panel.shot(`checkpoint-settings-${width}`);

    await page.reload();
    await page.getByTestId('settings-button').click();
    await expect(page.getByTestId('checkpoints-enabled')).not.toBeChecked();
    await expect(page.getByTestId('checkpoint-storage-input')).toHaveValue('512');
    await expect(page.getByTestId('checkpoint-max-file-input')).toHaveValue('8');
    await page.getByTestId('settings-close').click();

    // A write made while they are off: its card says its code cannot be rewound, and why.
    panel.script({
      steps: [
        { tool_calls: [{ id: 'call_off', name: 'write_file', args: { path: 'off.txt', content: 'off\n' } }] },
        { text: ['Written without a checkpoint.'] },
      ],
    });
    await panel.send('Write the file');
    const card = page.locator('[data-testid="tool-card"][data-tool="write_file"]');
    await card.getByTestId('approve-once').click();
    await expect(page.getByTestId('message-assistant').last()).toContainText('Written without a checkpoint.');
    expect(await panel.read('off.txt')).toBe('off\n');
    await expect(card.getByTestId('rewind-button')).toHaveAttribute('data-code', 'unavailable');
    await card.getByTestId('rewind-button').focus();
    await page.keyboard.press('Enter');
    const code = page.getByTestId('rewind-code');
    await expect(code).toBeFocused();
    await expect(code).toHaveAttribute('aria-disabled', 'true');
    await expect(code.getByTestId('rewind-unavailable')).toHaveText(
      'Not available: Checkpoints were off when this ran, so its code cannot be rewound.',
    );
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('rewind-dialog')).toHaveCount(0);
    await expect(page.getByTestId('rewind-conversation')).toBeVisible();
    await panel.shot(`checkpoint-off-card-${width}`);
  });
}
