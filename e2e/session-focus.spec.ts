import { expect, test } from './panel-fixture.ts';

// As a narrow side panel the session list covers the transcript: Tab and Shift+Tab stay inside it
// while it is open, and closing it gives the focus back to ☰. Beside the transcript (1280 px) it
// traps nothing.

const inList = () => document.querySelector('[data-testid="session-list"]')?.contains(document.activeElement) ?? false;

test('the narrow session overlay keeps Tab inside and returns the focus on close (420 px)', async ({ panel }) => {
  const { page } = panel;
  await page.setViewportSize({ width: 420, height: 800 });
  panel.script({ steps: [{ text: ['Hello.'] }] });
  await panel.send('A session to list');
  await expect(page.getByTestId('message-assistant').last()).toContainText('Hello.');

  await page.getByTestId('sessions-button').click();
  await expect(page.getByTestId('session-new')).toBeFocused();
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(inList)).toBe(true);
  }
  await page.getByTestId('session-new').focus();
  await page.keyboard.press('Shift+Tab');
  expect(await page.evaluate(inList)).toBe(true);
  await expect(page.getByTestId('session-delete')).toBeFocused();
  await panel.shot('session-overlay-trap-420');

  await page.keyboard.press('Escape');
  await expect(page.getByTestId('session-list')).toHaveCount(0);
  await expect(page.getByTestId('sessions-button')).toBeFocused();
});

test('beside the transcript the session list lets Tab move on (1280 px)', async ({ panel }) => {
  const { page } = panel;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('sessions-button').click();
  await expect(page.getByTestId('session-new')).toBeFocused();
  let left = false;
  for (let i = 0; i < 8 && !left; i++) {
    await page.keyboard.press('Tab');
    left = !(await page.evaluate(inList));
  }
  expect(left).toBe(true);
});
