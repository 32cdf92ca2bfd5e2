import type { Page } from '@playwright/test';
import { expect, test } from './panel-fixture.ts';
import {
  WIDTHS,
  expectControlsInside,
  expectNoSideScroll,
  showCards,
  showSessions,
  showSettings,
  showWelcome,
} from './screens.ts';

// The frame around the cards at a desktop width and as a narrow side panel: nothing scrolls
// sideways, no control is pushed out of the window, the key hint and the footer stay short, and
// the session list overlays the transcript when there is no room beside it.

/** How many lines of text an element takes. */
function lines(page: Page, testId: string): Promise<number> {
  return page.getByTestId(testId).evaluate((element) => {
    const style = getComputedStyle(element);
    const lineHeight = Number.parseFloat(style.lineHeight);
    const content =
      element.getBoundingClientRect().height -
      Number.parseFloat(style.paddingTop) -
      Number.parseFloat(style.paddingBottom);
    return Math.round(content / lineHeight);
  });
}

async function expectFits(page: Page): Promise<void> {
  await expectNoSideScroll(page);
  await expectControlsInside(page);
}

/** Runs `check` with the window at each width in turn, 800 px high: one screen, resized under it. */
async function atEachWidth(page: Page, check: (width: number) => Promise<void>): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await check(width);
  }
}

// Each screen is reached once and checked at every width, the window resized under it.
test(`the welcome offer and the composer fit, with a short key hint and a one-line footer, at ${WIDTHS.join(', ')} px`, async ({
  panel,
}) => {
  await showWelcome(panel);
  await atEachWidth(panel.page, async (width) => {
    await expectFits(panel.page);
    await expect(panel.page.getByTestId('composer-send')).toBeInViewport({ ratio: 1 });
    expect(await lines(panel.page, 'composer-keys')).toBeLessThanOrEqual(2);
    expect(await lines(panel.page, 'footer')).toBe(1);
    await panel.shot(`layout-welcome-${width}`);

    // A short window leaves most of its height to the transcript: the top bar, the composer and
    // the footer take under 30 % of it, and the composer's controls stay in view.
    const height = 560;
    await panel.page.setViewportSize({ width, height });
    const chrome = await panel.page.evaluate(() =>
      ['.topbar', '.composer', '.footer']
        .map((selector) => document.querySelector(selector)?.getBoundingClientRect().height ?? 0)
        .reduce((sum, part) => sum + part, 0),
    );
    expect(chrome / height, `at ${width} px`).toBeLessThan(0.3);
    await expect(panel.page.getByTestId('composer-send')).toBeInViewport({ ratio: 1 });
    await expectFits(panel.page);
    await panel.shot(`layout-short-${width}`);
  });
});

test(`a transcript whose cards hold lines wider than the panel does not scroll sideways, at ${WIDTHS.join(', ')} px`, async ({
  panel,
}) => {
  await showCards(panel);
  await atEachWidth(panel.page, async (width) => {
    await expectFits(panel.page);
    expect(await lines(panel.page, 'footer'), `at ${width} px`).toBe(1);
    await panel.shot(`layout-cards-${width}`);
  });
});

test(`the settings put every control within the window, at ${WIDTHS.join(', ')} px`, async ({ panel }) => {
  await showSettings(panel);
  const keyField = (await panel.page.getByTestId('key-input-anthropic').count()) > 0;
  if (keyField) await panel.page.getByTestId('key-input-anthropic').fill('sk-ant-not-a-real-key');
  await atEachWidth(panel.page, async (width) => {
    if (keyField) {
      await expect(panel.page.getByTestId('key-save-anthropic')).toBeInViewport({ ratio: 1 });
    } else {
      // The browser panel offers no key field that could only fail: it names the variables instead.
      await expect(panel.page.getByTestId('keys-from-environment')).toBeInViewport();
      await expect(panel.page.locator('.settings input[type="password"]')).toHaveCount(0);
      await expect(panel.page.getByTestId('key-status-anthropic')).toHaveText('not set');
    }
    await expectFits(panel.page);
    await expect(panel.page.getByTestId('send-key-select')).toBeInViewport({ ratio: 1 });
    await panel.shot(`layout-settings-${width}`);
  });
});

test(`the session list fits, beside the transcript when there is room and over it when not, at ${WIDTHS.join(', ')} px`, async ({
  panel,
}) => {
  const { page } = panel;
  await showSessions(panel);
  await atEachWidth(page, async (width) => {
    // Opened again at each width but the first, after the close below.
    if ((await page.getByTestId('session-list').count()) === 0) {
      await page.getByTestId('sessions-button').click();
      await expect(page.getByTestId('session-item')).toHaveCount(1);
    }
    await expectFits(page);
    const mainWidth = await page.locator('.panel-main').evaluate((main) => main.getBoundingClientRect().width);
    if (width > 720) {
      expect(mainWidth).toBeLessThan(width - 200);
    } else {
      // Overlaid: the transcript keeps the whole width under it.
      expect(mainWidth, `at ${width} px`).toBe(width);
      await expect(page.getByTestId('session-list')).toBeInViewport({ ratio: 1 });
    }
    await panel.shot(`layout-sessions-${width}`);
    await page.getByTestId('sessions-close').click();
    await expect(page.getByTestId('session-list')).toHaveCount(0);
    await expect(page.getByTestId('sessions-button')).toBeFocused();
  });
});
