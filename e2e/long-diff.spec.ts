import { createHash } from 'node:crypto';
import { expect, test } from './panel-fixture.ts';

// A 2 000-line diff, expanded, at a desktop width and as a narrow side panel: the card keeps a
// bounded height, the diff scrolls inside it with only the lines in view in the DOM, the keyboard
// reaches its end, and it folds from its top.

const COUNT = 998;
const before = Array.from({ length: COUNT }, (_, i) => `a${i} = old;`).join('\n') + '\n';
const after = before.replaceAll('old;', 'new;');
const sha256 = createHash('sha256').update(before).digest('hex');
const NODE_BUDGET = 1500;

for (const width of [1280, 420] as const) {
  test(`a 2000-line diff scrolls inside its card with few DOM nodes at ${width} px`, async ({ panel }) => {
    const height = 800;
    await panel.page.setViewportSize({ width, height });
    await panel.write('src/many.txt', before);
    panel.script({
      steps: [
        {
          tool_calls: [
            {
              id: 'call_write',
              name: 'write_file',
              args: { path: 'src/many.txt', content: after, expected_sha256: sha256 },
            },
          ],
        },
        { text: ['Rewrote.'] },
      ],
    });
    await panel.send('Rewrite src/many.txt');
    const card = panel.page.locator('[data-testid="tool-card"][data-tool="write_file"]');
    await card.getByTestId('approve-once').click();
    await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Rewrote.');
    await card.getByRole('button', { name: /Show the whole diff/ }).click();
    const diff = card.getByTestId('patch-diff');
    await expect(diff).toHaveAttribute('data-lines', String(2 * COUNT + 1));

    const nodes = () => card.evaluate((element) => element.querySelectorAll('*').length);
    const cardHeight = async () => (await card.boundingBox())?.height ?? Infinity;
    expect(await cardHeight()).toBeLessThan(height);
    let most = await nodes();
    const scrollHeight = await diff.evaluate((element) => element.scrollHeight);
    expect(scrollHeight).toBeGreaterThan(2 * COUNT * 17);
    for (let top = 0; top <= scrollHeight; top += 1500) {
      await diff.evaluate((element, to) => element.scrollTo(0, to), top);
      await panel.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
      most = Math.max(most, await nodes());
    }
    expect(most).toBeLessThanOrEqual(NODE_BUDGET);
    expect(await cardHeight()).toBeLessThan(height);

    // Home then End by keyboard: the first and the last changed lines come into view.
    await diff.focus();
    await panel.page.keyboard.press('Home');
    await expect(diff.locator('[data-kind="remove"]').first().locator('.diff-no').first()).toHaveText('1');
    await panel.page.keyboard.press('End');
    const last = diff.locator('[data-kind="add"]').last();
    await expect(last.locator('.diff-no').nth(1)).toHaveText(String(COUNT));
    await expect(last).toBeInViewport();
    await expect(last.getByTestId('diff-word')).toHaveText('new');
    await expect(card.locator('.card-header')).toBeInViewport();
    await panel.shot(`long-diff-${width}`);

    await card.getByTestId('show-fewer-top').click();
    await expect(card.getByRole('button', { name: /Show the whole diff/ })).toBeVisible();
    expect(await nodes()).toBeLessThanOrEqual(NODE_BUDGET);
  });
}
