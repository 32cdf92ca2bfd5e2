import { createHash } from 'node:crypto';
import { expect, test } from './panel-fixture.ts';

// A 2 000-line diff, expanded, at a desktop width and as a narrow side panel: the card keeps a
// bounded height, the diff scrolls inside it with only the lines in view in the DOM, the keyboard
// reaches its end, the lines are coloured by the highlighting worker, and it folds from its top.

const COUNT = 998;
const before = Array.from({ length: COUNT }, (_, i) => `let a${i} = old;`).join('\n') + '\n';
const after = before.replaceAll('old;', 'new;');
const sha256 = createHash('sha256').update(before).digest('hex');
const NODE_BUDGET = 1500;

for (const width of [1280, 420] as const) {
  test(`a 2000-line diff scrolls inside its card with few DOM nodes at ${width} px`, async ({ panel }) => {
    // Writing, approving and scrolling through 2 000 lines: more than the default minute on a busy machine.
    test.setTimeout(120_000);
    const height = 800;
    await panel.page.setViewportSize({ width, height });
    await panel.write('src/many.ts', before);
    panel.script({
      steps: [
        {
          tool_calls: [
            {
              id: 'call_write',
              name: 'write_file',
              args: { path: 'src/many.ts', content: after, expected_sha256: sha256 },
            },
          ],
        },
        { text: ['Rewrote.'] },
      ],
    });
    await panel.send('Rewrite src/many.ts');
    const card = panel.page.locator('[data-testid="tool-card"][data-tool="write_file"]');
    await card.getByTestId('approve-once').click();
    await expect(card).toHaveAttribute('data-state', 'done');
    await card.getByRole('button', { name: /Show the whole diff/ }).click();
    const diff = card.getByTestId('patch-diff');
    await expect(diff).toHaveAttribute('data-lines', String(2 * COUNT + 1));

    const nodes = () => card.evaluate((element) => element.querySelectorAll('*').length);
    const cardHeight = async () => (await card.boundingBox())?.height ?? Infinity;
    expect(await cardHeight()).toBeLessThan(height);
    const scrollHeight = await diff.evaluate((element) => element.scrollHeight);
    expect(scrollHeight).toBeGreaterThan(2 * COUNT * 17);
    // Through the whole diff in steps, a frame drawn at each: the most elements the card ever held.
    const most = await card.evaluate(async (element) => {
      const box = element.querySelector<HTMLElement>('[data-testid="patch-diff"]');
      if (!box) return Infinity;
      const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      let count = element.querySelectorAll('*').length;
      for (let top = 0; top <= box.scrollHeight; top += 2400) {
        box.scrollTo(0, top);
        await frame();
        count = Math.max(count, element.querySelectorAll('*').length);
      }
      return count;
    });
    expect(most).toBeGreaterThan(200);
    expect(most).toBeLessThanOrEqual(NODE_BUDGET);
    expect(await cardHeight()).toBeLessThan(height);

    // Home then End by keyboard: the first and the last changed lines come into view.
    await diff.focus();
    await expect(diff).toBeFocused();
    await panel.page.keyboard.press('Home');
    await expect(diff.locator('[data-kind="remove"]').first().locator('.diff-no').first()).toHaveText('1');
    await expect(diff).toBeFocused();
    await panel.page.keyboard.press('End');
    const last = diff.locator('[data-kind="add"]').last();
    await expect(last.locator('.diff-no').nth(1)).toHaveText(String(COUNT));
    await expect(last).toBeInViewport();
    await expect(last.getByTestId('diff-word')).toHaveText('new');
    await expect(card.locator('.card-header')).toBeInViewport();
    // Colours come from the worker once it has highlighted all 2 000 lines: seconds on a busy machine.
    await expect(last.locator('.diff-text span[style]').first()).toHaveText('let', { timeout: 30_000 });
    expect(panel.page.workers().some((worker) => worker.url().includes('highlight-worker'))).toBe(true);
    await panel.shot(`long-diff-${width}`);

    await card.getByTestId('show-fewer-top').click();
    await expect(card.getByRole('button', { name: /Show the whole diff/ })).toBeVisible();
    expect(await nodes()).toBeLessThanOrEqual(NODE_BUDGET);
  });
}
