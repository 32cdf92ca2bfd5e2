import type { Page } from '@playwright/test';
import { expect, test } from './panel-fixture.ts';

// Focus never falls to the page when a control goes away: after Retry and a conversation rewind it
// is in the message box (the rewound message selected); a refused "Other model…" gives the id field
// back with its text selected, Esc there goes back to the picker, and an id that worked to the
// message box; Esc in Find (its field or its buttons) goes back to where focus was when Ctrl+F
// opened it. At 1280, 420 and 360 px.

const selectedText = (page: Page, testId: string) =>
  page
    .getByTestId(testId)
    .evaluate((box: HTMLInputElement | HTMLTextAreaElement) =>
      box.value.slice(box.selectionStart ?? 0, box.selectionEnd ?? 0),
    );

for (const width of [1280, 420, 360]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ panel }) => {
      await panel.page.setViewportSize({ width, height: 800 });
    });

    test('focus returns to the message box after Retry and, with the text selected, after a rewind', async ({
      panel,
    }) => {
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
      await panel.shot(`focus-after-retry-${width}`);

      await panel.send('Ask something else');
      await expect(page.getByTestId('message-assistant').last()).toContainText('Another answer.');
      await page.locator('.message-user-row').last().getByTestId('rewind-button').click();
      await page.getByTestId('rewind-conversation').click();
      const confirm = page.getByTestId('rewind-confirm');
      if (await confirm.isVisible()) await confirm.click();
      await expect(input).toHaveValue('Ask something else');
      await expect(input).toBeFocused();
      expect(await selectedText(page, 'composer-input')).toBe('Ask something else');
      await panel.shot(`focus-after-rewind-${width}`);
    });

    test('a refused "Other model…" gives its field back selected; Esc goes to the picker, a working id to the message box', async ({
      panel,
    }) => {
      const { page } = panel;
      const picker = page.getByTestId('model-picker');
      await picker.selectOption({ label: 'Other model…' });
      const field = page.getByTestId('model-id-input');
      await expect(field).toBeFocused();
      const refused = 'compat:http://127.0.0.1:9/v1#nothing';
      await field.fill(refused);
      await field.press('Enter');
      await expect(page.getByTestId('model-error')).toContainText('Cannot reach the model server');
      await expect(field).toBeFocused();
      expect(await selectedText(page, 'model-id-input')).toBe(refused);
      await panel.shot(`focus-after-refused-model-${width}`);

      await field.press('Escape');
      await expect(field).toHaveCount(0);
      await expect(picker).toBeFocused();

      await picker.selectOption({ label: 'Other model…' });
      await expect(field).toBeFocused();
      const working = `compat:${panel.model.baseURL}#scripted`;
      await field.fill(working);
      await field.press('Enter');
      await expect(field).toHaveCount(0);
      await expect(page.getByTestId('composer-input')).toBeFocused();
    });

    test('Esc in Find, from its field or its buttons, gives focus back to where Ctrl+F was pressed', async ({
      panel,
    }) => {
      const { page } = panel;
      panel.script({ steps: [{ text: ['A needle in the answer.'] }] });
      await panel.send('Say needle');
      await expect(page.getByTestId('message-assistant').last()).toContainText('A needle');

      // From the message box, closed from the field.
      const input = page.getByTestId('composer-input');
      await input.press('Control+f');
      await page.getByTestId('find-input').fill('needle');
      await expect(page.getByTestId('find-status')).toHaveText(/of/);
      await page.getByTestId('find-input').press('Escape');
      await expect(page.getByTestId('find-bar')).toHaveCount(0);
      await expect(input).toBeFocused();

      // From the mode button, closed from the bar's Next button.
      const mode = page.getByTestId('mode-button');
      await mode.focus();
      await page.keyboard.press('Control+f');
      await page.getByTestId('find-input').fill('needle');
      await page.getByTestId('find-next').focus();
      await panel.shot(`focus-find-open-${width}`);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('find-bar')).toHaveCount(0);
      await expect(mode).toBeFocused();

      // From nowhere (the page itself): the message box.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('Control+f');
      await expect(page.getByTestId('find-input')).toBeFocused();
      await page.getByTestId('find-close').focus();
      await page.keyboard.press('Escape');
      await expect(input).toBeFocused();
    });
  });
}
