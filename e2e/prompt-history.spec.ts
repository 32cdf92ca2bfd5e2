import { expect, test } from './panel-fixture.ts';

// The message box remembers this workspace's prompts (↑ at the first line, ↓ back, Shift+Delete
// forgets one), and focus comes back to it after Retry and after a conversation rewind, with the
// restored text selected.

for (const width of [1280, 420]) {
  test(`↑ and ↓ recall earlier prompts, editable, and Shift+Delete forgets one at ${width} px`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    panel.script({ steps: [{ text: ['One.'] }, { text: ['Two.'] }, { text: ['Three.'] }] });
    await panel.send('First prompt');
    await expect(page.getByTestId('message-assistant').last()).toContainText('One.');
    await panel.send('Second prompt');
    await expect(page.getByTestId('message-assistant').last()).toContainText('Two.');

    const input = page.getByTestId('composer-input');
    await input.focus();
    await input.press('ArrowUp');
    await expect(input).toHaveValue('Second prompt');
    await input.press('ArrowUp');
    await expect(input).toHaveValue('First prompt');
    await input.press('ArrowDown');
    await expect(input).toHaveValue('Second prompt');
    await panel.shot(`history-recalled-${width}`);
    await input.press('ArrowDown');
    await expect(input).toHaveValue('');

    // Forget the first; the walk no longer finds it.
    await input.press('ArrowUp');
    await input.press('ArrowUp');
    await expect(input).toHaveValue('First prompt');
    await input.press('Shift+Delete');
    // The next prompt shows in its place; there is none older any more.
    await expect(input).toHaveValue('Second prompt');
    await input.press('ArrowUp');
    await expect(input).toHaveValue('Second prompt');

    // A recalled prompt is edited, then sent.
    await input.press('End');
    await input.pressSequentially(', again');
    await input.press('Enter');
    await expect(page.getByTestId('message-user').last()).toContainText('Second prompt, again');
    await page.reload();
    await page.getByTestId('composer-input').press('ArrowUp');
    await expect(page.getByTestId('composer-input')).toHaveValue('Second prompt, again');
  });
}

test('focus returns to the message box after Retry and, with the text selected, after a rewind', async ({ panel }) => {
  const { page } = panel;
  panel.script({
    steps: [
      { fault: { type: 'http_error', status: 401 } },
      { text: ['Worked the second time.'] },
      { text: ['Another answer.'] },
    ],
  });
  await panel.send('Please answer this');
  await page.getByTestId('turn-retry').click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('Worked the second time.');
  const input = page.getByTestId('composer-input');
  await expect(input).toBeFocused();
  await panel.shot('focus-after-retry');

  await panel.send('Ask something else');
  await expect(page.getByTestId('message-assistant').last()).toContainText('Another answer.');
  await page.locator('.message-user-row').last().getByTestId('rewind-button').click();
  await page.getByTestId('rewind-conversation').click();
  const confirm = page.getByTestId('rewind-confirm');
  if (await confirm.isVisible()) await confirm.click();
  await expect(input).toHaveValue('Ask something else');
  await expect(input).toBeFocused();
  const selected = await input.evaluate((box: HTMLTextAreaElement) =>
    box.value.slice(box.selectionStart, box.selectionEnd),
  );
  expect(selected).toBe('Ask something else');
  await panel.shot('focus-after-rewind');
});
