import type { Locator, Page } from '@playwright/test';
import { expect, test } from './panel-fixture.ts';
import { showApproval, showCards, showSessions, showSettings, showWelcome, WIDTHS } from './screens.ts';
import { axeOn } from './axe.ts';

// axe-core on the main screens in both themes, each with its primary button hovered (a hovered
// button is what turned white on white): no serious or critical violation. axe leaves disabled
// controls out of its contrast rule, so the disabled Send and Save are measured here directly.

/**
 * Serious and critical WCAG 2 A/AA violations on the page as it is now, one line each. Every rule of
 * those tags runs; only the violations are reported in full (axe's `resultTypes`), so axe skips
 * building a selector for each of the thousands of elements that pass.
 */
async function violations(page: Page): Promise<string[]> {
  const axe = await axeOn(page);
  const results = await axe
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} — ${node.failureSummary ?? ''}`),
    );
}

/**
 * The contrast ratio of an element's text against its own background (WCAG 2 relative luminance),
 * as drawn: an element faded with `opacity` is blended into the background behind it first.
 */
function contrastOf(element: Locator): Promise<number> {
  return element.evaluate((node) => {
    const rgba = (color: string) => {
      const [r = 0, g = 0, b = 0, a = 1] = (color.match(/[\d.]+/g) ?? []).map(Number);
      return { rgb: [r, g, b], a };
    };
    const mix = (top: number[], bottom: number[], alpha: number) =>
      top.map((value, index) => value * alpha + (bottom[index] ?? 0) * (1 - alpha));
    const luminance = (rgb: number[]) => {
      const [r = 0, g = 0, b = 0] = rgb.map((value) => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    let opacity = 1;
    let behind: number[] | null = null;
    for (let at: Element | null = node; at; at = at.parentElement) {
      const style = getComputedStyle(at);
      opacity *= Number(style.opacity);
      const background = rgba(style.backgroundColor);
      if (at !== node && behind === null && background.a === 1) behind = background.rgb;
    }
    const own = getComputedStyle(node);
    const backdrop = behind ?? [255, 255, 255];
    const background = rgba(own.backgroundColor);
    const text = rgba(own.color);
    // Within the element, then the element (faded by its opacity) over what is behind it.
    const layerBackground = mix(background.rgb, backdrop, background.a);
    const layerText = mix(text.rgb, layerBackground, text.a);
    const drawnBackground = mix(layerBackground, backdrop, opacity);
    const drawnText = mix(layerText, backdrop, opacity);
    const [light = 0, dark = 0] = [luminance(drawnText), luminance(drawnBackground)].sort((a, b) => b - a);
    return (light + 0.05) / (dark + 0.05);
  });
}

async function hoverAndCheck(panel: { page: Page; shot(name: string): Promise<void> }, button: Locator, name: string) {
  await button.hover();
  // The hovered colours, measured while the pointer is on the button, and the whole page through axe.
  expect(await contrastOf(button), `${name}: hovered button's label contrast`).toBeGreaterThanOrEqual(4.5);
  expect(await violations(panel.page), name).toEqual([]);
  await panel.shot(name);
}

// One panel per theme: each screen is reached once and checked at every width in turn, the window
// resized under it (the layout follows the width as the page is resized; the same screen drawn at
// four widths). Six screens, seven axe runs at each of four widths: minutes on a busy machine.
test.describe.configure({ timeout: 360_000 });

for (const theme of ['light', 'dark'] as const) {
  test(`no serious or critical axe violations on the main screens, primary buttons hovered, at ${WIDTHS.join(', ')} px (${theme})`, async ({
    panel,
  }) => {
    const { page } = panel;
    /** Runs `check` with the window at each width in turn. */
    const atEachWidth = async (check: (width: number) => Promise<void>) => {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await check(width);
      }
    };
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);

    await showWelcome(panel);
    await atEachWidth((width) =>
      hoverAndCheck(panel, page.getByTestId('use-demo-model'), `a11y-welcome-${theme}-${width}`),
    );
    const compat = await page.getByTestId('model-picker').locator('option[value^="compat:"]').getAttribute('value');
    await page.getByTestId('model-picker').selectOption(compat ?? '');

    // An empty message box: Send is disabled, and still readable.
    const send = page.getByTestId('composer-send');
    await expect(send).toBeDisabled();
    await atEachWidth(async (width) => {
      expect(await contrastOf(send), `disabled Send at ${width} px`).toBeGreaterThanOrEqual(4.5);
    });

    await showSettings(panel);
    if ((await page.getByTestId('key-input-anthropic').count()) > 0) {
      const save = page.getByTestId('key-save-anthropic');
      await expect(save).toBeDisabled();
      await atEachWidth(async (width) => {
        expect(await contrastOf(save), `disabled Save at ${width} px`).toBeGreaterThanOrEqual(4.5);
      });
      await page.getByTestId('key-input-anthropic').fill('sk-ant-not-a-real-key');
      await atEachWidth((width) => hoverAndCheck(panel, save, `a11y-settings-${theme}-${width}`));
    } else {
      // The browser panel's host keeps no key: the screen says where keys come from instead.
      await expect(page.getByTestId('keys-from-environment')).toBeVisible();
      await atEachWidth((width) =>
        hoverAndCheck(panel, page.getByTestId('settings-close'), `a11y-settings-${theme}-${width}`),
      );
    }
    await page.getByTestId('settings-close').click();

    await showApproval(panel);
    await atEachWidth((width) =>
      hoverAndCheck(panel, page.getByTestId('approve-once'), `a11y-approval-${theme}-${width}`),
    );
    await page.getByTestId('approve-once').click();
    await expect(page.getByTestId('message-assistant').last()).toContainText('Finished.');

    await page.getByTestId('composer-input').fill('One more thing');
    await atEachWidth((width) => hoverAndCheck(panel, send, `a11y-transcript-${theme}-${width}`));

    // Cards whose code is wider than the panel: highlighted lines readable, the box reachable.
    await page.getByTestId('composer-input').fill('');
    await showCards(panel);
    await atEachWidth(async (width) => {
      expect(await violations(page), `a11y-cards-${theme}-${width}`).toEqual([]);
      await panel.shot(`a11y-cards-${theme}-${width}`);
    });

    await showSessions(panel);
    await atEachWidth((width) =>
      hoverAndCheck(panel, page.getByTestId('session-new'), `a11y-sessions-${theme}-${width}`),
    );
  });
}
