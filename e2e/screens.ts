import { expect, type Page } from '@playwright/test';
import type { Panel } from './panel-fixture.ts';
import { axeOn } from './axe.ts';

// The panel's main screens, reached as a person would, for the layout, keyboard and accessibility
// specs: each helper leaves the page showing that screen.

/** Side panel widths down to the narrowest supported, and a desktop window. */
export const WIDTHS = [1280, 420, 360, 320] as const;

const LONG_LINE = `const endpoint = "${'https://example.invalid/'.repeat(12)}"; // one line wider than any panel`;

/** The welcome offer: the selected model needs an API key that nothing provides. */
export async function showWelcome(panel: Panel): Promise<void> {
  await panel.page.getByTestId('model-picker').selectOption('anthropic:claude-sonnet-4-5');
  await expect(panel.page.getByTestId('welcome')).toBeVisible();
}

/** A finished turn with cards whose content is wider than the panel, and a message with a long word. */
export async function showCards(panel: Panel): Promise<void> {
  await panel.write('src/wide.ts', `${LONG_LINE}\nexport const answer = 42;\n`);
  panel.script({
    steps: [
      {
        tool_calls: [
          { id: 'call_read', name: 'read_file', args: { path: 'src/wide.ts' } },
          { id: 'call_list', name: 'list_dir', args: {} },
          { id: 'call_search', name: 'search_files', args: { pattern: 'endpoint' } },
        ],
      },
      { text: [`The file sets \`endpoint\` to ${'https://example.invalid/'.repeat(6)} and nothing else.`] },
    ],
  });
  await panel.send(`Look at ${'src/wide.ts/'.repeat(12)}`);
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('nothing else', { timeout: 30_000 });
  // The read, the listing and the search of one step fold into one card; opened, it shows all three.
  await expect(panel.page.getByTestId('read-group-summary')).toHaveText(
    'Read 1 file, listed 1 folder, searched 1 pattern',
  );
  await panel.page.getByTestId('read-group-toggle').click();
  const group = panel.page.getByTestId('read-group');
  await expect(group.locator('[data-testid="tool-card"][data-state="done"]')).toHaveCount(3);
}

/** A command waiting for the person's answer. */
export async function showApproval(panel: Panel): Promise<void> {
  panel.script({
    steps: [
      { tool_calls: [{ id: 'call_touch', name: 'exec', args: { command: 'touch approved.txt' } }] },
      { text: ['Finished.'] },
    ],
  });
  await panel.send('Make a file with a command');
  await expect(panel.page.getByTestId('approval')).toBeVisible();
}

export async function showSettings(panel: Panel): Promise<void> {
  await panel.page.getByTestId('settings-button').click();
  await expect(panel.page.getByTestId('settings')).toBeVisible();
}

/** The session list, holding the session of one finished turn. */
export async function showSessions(panel: Panel): Promise<void> {
  panel.script({ steps: [{ text: ['Hello.'] }] });
  await panel.send(`A first session whose title is long enough to need an ellipsis ${'word '.repeat(20)}`);
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Hello.');
  await panel.page.getByTestId('sessions-button').click();
  await expect(panel.page.getByTestId('session-item')).toHaveCount(1);
}

/** The page itself does not scroll sideways; a failure names the elements that stick out. */
export async function expectNoSideScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth, outside } = await page.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ').join('.')}` : ''}`;
    // The outermost elements reaching past the window: their children would only repeat them.
    const outside = [...document.body.querySelectorAll('*')]
      .filter((element) => element.getBoundingClientRect().right > limit + 0.5)
      .filter(
        (element) => !(element.parentElement && element.parentElement.getBoundingClientRect().right > limit + 0.5),
      )
      .map((element) => `${describe(element)} → ${Math.round(element.getBoundingClientRect().right)} px`);
    return { scrollWidth: document.documentElement.scrollWidth, clientWidth: limit, outside };
  });
  expect(scrollWidth, `the page scrolls sideways: ${outside.join(', ')}`).toBeLessThanOrEqual(clientWidth);
}

/** Every visible control of the page lies within the window's width (none is cut off or pushed out). */
export async function expectControlsInside(page: Page): Promise<void> {
  const outside = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, select, input, textarea')]
      .filter((element) => element.getClientRects().length > 0)
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.left < -0.5 || box.right > document.documentElement.clientWidth + 0.5;
      })
      .map((element) => element.dataset['testid'] ?? element.getAttribute('aria-label') ?? element.textContent),
  );
  expect(outside, 'controls outside the window').toEqual([]);
}

/** No serious or critical WCAG 2 A/AA violation (axe) inside `selector`. */
export async function expectNoSeriousViolations(page: Page, selector: string): Promise<void> {
  const results = await (await axeOn(page)).include(selector).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(results.violations.filter((found) => found.impact === 'serious' || found.impact === 'critical')).toEqual([]);
}
