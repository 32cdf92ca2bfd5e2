import { expect, test } from './panel-fixture.ts';

// While the panel is not in front, a question that waits and the end of a turn (finished or
// failed) each raise a system notification; clicking the question's brings the card forward with
// the question focused. Headless Chromium cannot lose focus to another window, so the page is
// told it is behind through document.hasFocus, and each Notification made is recorded as well as shown.

declare global {
  interface Window {
    __aetherFront: boolean;
    __notes: { title: string; body: string; tag: string; requireInteraction: boolean; note: Notification }[];
  }
}

const RECORD_NOTIFICATIONS = () => {
  window.__aetherFront = true;
  window.__notes = [];
  Document.prototype.hasFocus = () => window.__aetherFront;
  const Real = window.Notification;
  class Recorded extends Real {
    constructor(title: string, options: NotificationOptions = {}) {
      super(title, options);
      window.__notes.push({
        title,
        body: options.body ?? '',
        tag: options.tag ?? '',
        requireInteraction: options.requireInteraction ?? false,
        note: this,
      });
    }
  }
  window.Notification = Recorded as typeof Notification;
};

const notes = () =>
  window.__notes.map(({ title, body, tag, requireInteraction }) => ({ title, body, tag, requireInteraction }));

for (const width of [1280, 420] as const) {
  test(`notifications for a waiting question and a turn's end while the panel is behind (${width} px)`, async ({
    panel,
  }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    await page.context().grantPermissions(['notifications']);
    await page.addInitScript(RECORD_NOTIFICATIONS);
    await page.reload();
    await expect(page.getByTestId('composer-input')).toBeVisible();

    // In front: nothing is notified.
    panel.script({ steps: [{ text: ['Seen in front.'] }] });
    await panel.send('First, in front');
    await expect(page.getByTestId('message-assistant').last()).toContainText('Seen in front.');
    await page.waitForTimeout(200);
    expect(await page.evaluate(notes)).toEqual([]);

    await page.evaluate(() => (window.__aetherFront = false));
    panel.script({
      steps: [
        { tool_calls: [{ id: 'call_touch', name: 'exec', args: { command: 'touch noted.txt' } }] },
        { text: ['Made the file you asked for.'] },
      ],
    });
    await panel.send('Make a file while I look elsewhere');
    await expect
      .poll(() => page.evaluate(notes))
      .toEqual([
        {
          title: 'Approval needed',
          body: 'Run a command: touch noted.txt',
          tag: 'approval:call_touch',
          requireInteraction: true,
        },
      ]);
    // Clicking it brings the question forward, focused.
    await page.getByTestId('composer-input').focus();
    await page.evaluate(() => window.__notes[0]?.note.dispatchEvent(new Event('click')));
    await expect(page.getByTestId('approval')).toBeFocused();
    await page.keyboard.press('1');
    await expect(page.getByTestId('message-assistant').last()).toContainText('Made the file you asked for.');
    await expect.poll(() => page.evaluate(() => window.__notes.length)).toBe(2);
    expect((await page.evaluate(notes))[1]).toMatchObject({
      title: 'Turn finished',
      body: 'Made the file you asked for.',
      requireInteraction: false,
    });

    panel.script({ steps: [{ fault: { type: 'http_error', status: 401 } }] });
    await panel.send('This one fails');
    await expect(page.getByTestId('message-notice')).toContainText('401');
    await expect.poll(() => page.evaluate(() => window.__notes.length)).toBe(3);
    expect((await page.evaluate(notes))[2]).toMatchObject({ title: 'Turn failed' });
    expect((await page.evaluate(notes))[2]?.body).toContain('401');
  });
}
