import { expect, test } from './panel-fixture.ts';
import { showSessions } from './screens.ts';

// The panel from the keyboard alone, in a desktop window and a side panel: focus starts in the
// message box, Enter sends (or Ctrl+Enter, as the setting says), Shift+Tab changes the permission
// mode only in an empty box and Alt+T the effort, a new approval takes focus and 1 / 3 answer it, and Esc gives focus back.

const asksTwice = {
  steps: [
    { tool_calls: [{ id: 'call_first', name: 'exec', args: { command: 'touch first.txt' } }] },
    { tool_calls: [{ id: 'call_second', name: 'exec', args: { command: 'touch second.txt' } }] },
    { text: ['Finished.'] },
  ],
};

const exists = (read: Promise<string>) =>
  read.then(
    () => true,
    () => false,
  );

for (const width of [1280, 420]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ panel }) => {
      await panel.page.setViewportSize({ width, height: 800 });
    });

    test('focus starts in the message box; Enter sends and Shift+Enter starts a new line', async ({ panel }) => {
      const { page } = panel;
      const input = page.getByTestId('composer-input');
      await expect(input).toBeFocused();
      await expect(page.getByTestId('composer-keys')).toContainText('Enter send · Shift+Enter new line');
      panel.script({ steps: [{ text: ['Two lines received.'] }] });
      await page.keyboard.type('first line');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('second line');
      await expect(input).toHaveValue('first line\nsecond line');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('message-user').last()).toContainText('second line');
      await expect(page.getByTestId('message-assistant').last()).toContainText('Two lines received.');
      await expect(input).toHaveValue('');
      await panel.shot(`keyboard-enter-sends-${width}`);
    });

    test('the Ctrl+Enter setting makes Enter a new line, and the hint says so', async ({ panel }) => {
      const { page } = panel;
      await page.getByTestId('settings-button').click();
      await page.getByTestId('send-key-select').selectOption('ctrl-enter');
      await page.getByTestId('settings-close').click();
      await expect(page.getByTestId('composer-keys')).toContainText('Ctrl+Enter send · Enter new line');
      panel.script({ steps: [{ text: ['Sent with Ctrl+Enter.'] }] });
      const input = page.getByTestId('composer-input');
      await input.focus();
      await page.keyboard.type('one');
      await page.keyboard.press('Enter');
      await page.keyboard.type('two');
      await expect(input).toHaveValue('one\ntwo');
      await expect(page.getByTestId('message-user')).toHaveCount(0);
      await page.keyboard.press('Control+Enter');
      await expect(page.getByTestId('message-assistant').last()).toContainText('Sent with Ctrl+Enter.');
      await panel.shot(`keyboard-ctrl-enter-${width}`);
    });

    test('Shift+Tab cycles the permission mode in an empty box and moves focus back when it has text; Alt+T cycles the effort', async ({
      panel,
    }) => {
      const { page } = panel;
      const input = page.getByTestId('composer-input');
      const said = page.getByTestId('composer-said');
      await expect(page.getByTestId('mode-button')).toContainText('ask');
      await input.press('Shift+Tab');
      await expect(page.getByTestId('mode-button')).toContainText('plan');
      await expect(said).toHaveText(/^Permission mode: plan\./);
      await expect(input).toBeFocused();
      await input.press('Shift+Tab');
      await expect(page.getByTestId('mode-button')).toContainText('auto');
      await expect(said).toHaveText(/^Permission mode: auto\./);
      await expect(page.getByTestId('footer-effort')).toHaveText('effort medium');
      await input.fill('half a thought');
      await input.press('Alt+t');
      await expect(page.getByTestId('footer-effort')).toHaveText('effort high');
      await expect(said).toHaveText('Reasoning effort: high.');
      await expect(input).toHaveValue('half a thought');
      await panel.shot(`keyboard-mode-effort-${width}`);
      await input.press('Shift+Tab');
      await expect(input).not.toBeFocused();
      await expect(page.getByTestId('mode-button')).toContainText('auto');
    });

    test('a new approval takes focus; 1 allows once, 3 denies, and focus goes back to the message box', async ({
      panel,
    }) => {
      const { page } = panel;
      panel.script(asksTwice);
      await panel.send('Make two files');
      const first = page.locator('[data-call-id="call_first"]').getByTestId('approval');
      await expect(first).toBeFocused();
      await expect(first.getByRole('alert')).toHaveText(/^Approval needed: /);
      await panel.shot(`keyboard-approval-focused-${width}`);
      await page.keyboard.press('1');
      const second = page.locator('[data-call-id="call_second"]').getByTestId('approval');
      await expect(second).toBeFocused();
      await page.keyboard.press('3');
      await expect(page.getByTestId('message-assistant').last()).toContainText('Finished.');
      await expect(page.getByTestId('composer-input')).toBeFocused();
      await expect(page.locator('[data-call-id="call_first"]').getByTestId('approval-answer')).toHaveAttribute(
        'data-answer',
        'once',
      );
      await expect(page.locator('[data-call-id="call_second"]').getByTestId('approval-answer')).toHaveAttribute(
        'data-answer',
        'deny',
      );
      expect(await exists(panel.read('first.txt'))).toBe(true);
      expect(await exists(panel.read('second.txt'))).toBe(false);
    });

    test('Esc while an approval has focus stops the turn and puts focus in the message box', async ({ panel }) => {
      const { page } = panel;
      panel.script(asksTwice);
      await panel.send('Make two files');
      await expect(page.getByTestId('approval')).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('message-notice').last()).toContainText('Stopped');
      await expect(page.getByTestId('composer-input')).toBeFocused();
      expect(await exists(panel.read('first.txt'))).toBe(false);
    });

    test('Esc closes the session list and focus returns to the button that opened it', async ({ panel }) => {
      const { page } = panel;
      await showSessions(panel);
      await expect(page.getByTestId('session-new')).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('session-list')).toHaveCount(0);
      await expect(page.getByTestId('sessions-button')).toBeFocused();
    });
  });
}
