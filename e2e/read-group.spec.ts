import type { Locator, Page } from '@playwright/test';
import { expect, test } from './panel-fixture.ts';

// Consecutive read-only calls with nothing said between them, at a desktop width and as a narrow side
// panel: one compact card says what they did and names the files; opened (by keyboard), it shows each
// call's own card. Two pages of one file are named by their lines, and a search by its pattern.

for (const width of [1280, 420, 360] as const) {
  test(`reads, a listing and a search of one step fold into one card at ${width} px`, async ({ panel }) => {
    await panel.page.setViewportSize({ width, height: 800 });
    await panel.write('src/a.ts', 'export const a = 1;\n');
    await panel.write('src/b.ts', 'export const b = 2;\n');
    await panel.write('src/c.ts', 'export const c = a + b;\n');
    await panel.write('src/data.js', Array.from({ length: 10 }, (_, i) => `export const v${i} = ${i};`).join('\n'));
    panel.script({
      steps: [
        {
          tool_calls: [
            { id: 'call_a', name: 'read_file', args: { path: 'src/a.ts' } },
            { id: 'call_b', name: 'read_file', args: { path: 'src/b.ts' } },
            { id: 'call_c', name: 'read_file', args: { path: 'src/c.ts' } },
            { id: 'call_p1', name: 'read_file', args: { path: 'src/data.js', limit: 5 } },
            { id: 'call_p2', name: 'read_file', args: { path: 'src/data.js', offset: 6 } },
            { id: 'call_s', name: 'search_files', args: { pattern: 'export', path: '.' } },
          ],
        },
        { text: ['One more look.'], tool_calls: [{ id: 'call_d', name: 'read_file', args: { path: 'src/a.ts' } }] },
        { text: ['Read them.'] },
      ],
    });
    await panel.send('Read the sources');
    await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Read them.', { timeout: 30_000 });

    const group = panel.page.getByTestId('read-group');
    await expect(group).toHaveCount(1);
    await expect(group.getByTestId('read-group-summary')).toHaveText('Read 4 files, searched 1 pattern');
    await expect(group.getByTestId('read-group-names')).toHaveText(
      'a.ts, b.ts, c.ts, data.js lines 1–5, data.js lines 6–10, /export/',
    );
    // The header is one row, its summary one line, at every width.
    const summaryHeight = await group.getByTestId('read-group-summary').evaluate((element) => element.clientHeight);
    expect(summaryHeight).toBeLessThan(24);
    await expect(group.getByTestId('tool-card')).toHaveCount(0);
    // A read after the model said something stays a card of its own.
    await expect(panel.page.locator('[data-testid="tool-card"][data-call-id="call_d"]')).toBeVisible();
    // The turn's figures sit under the message, with its Rewind, not inside the bubble.
    const message = panel.page.getByTestId('message-user');
    await expect(message.getByTestId('turn-meta')).toHaveCount(0);
    await expect(message.getByTestId('rewind-button')).toHaveCount(0);
    await expect(panel.page.locator('.turn-row').getByTestId('turn-meta')).toContainText('Took');
    await panel.shot(`read-group-folded-${width}`);

    const toggle = group.getByTestId('read-group-toggle');
    await toggle.focus();
    await panel.page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(group.getByTestId('tool-card')).toHaveCount(6);
    await expect(group.locator('[data-call-id="call_p2"]').getByTestId('card-subtitle')).toHaveText(
      'data.js lines 6–10',
    );
    await expect(group.locator('[data-call-id="call_s"]').getByTestId('card-subtitle')).toHaveText('/export/');
    // Reads have nothing to rewind: no Rewind on their cards.
    await expect(group.getByTestId('rewind-button')).toHaveCount(0);
    await expect(group.locator('[data-call-id="call_c"]').getByTestId('code-line')).toHaveText([
      '1export const c = a + b;',
    ]);
    await group.locator('[data-call-id="call_p2"]').scrollIntoViewIfNeeded();
    await panel.shot(`read-group-open-${width}`);
    // Scrolled into the group, its header stays on top: the cards' own sticky headers slide beneath it.
    const uncovered = await group.locator(':scope > .card-header').evaluate((header) => {
      const box = header.getBoundingClientRect();
      return [box.top + 2, box.top + box.height / 2, box.bottom - 2].every((y) =>
        header.contains(document.elementFromPoint(box.left + box.width / 2, y)),
      );
    });
    expect(uncovered).toBe(true);

    await panel.page.keyboard.press('Enter');
    await expect(group.getByTestId('tool-card')).toHaveCount(0);
  });
}

/** Waits, frame by frame, for the focus to be in the card at this place of the group (aria-posinset). */
const focusReaches = (page: Page, place: number) =>
  page.waitForFunction(
    (expected) =>
      document.activeElement?.closest('[data-testid="tool-card"]')?.getAttribute('aria-posinset') === expected,
    String(place),
    { polling: 'raf' },
  );

/**
 * A code line's text as the page's token highlights colour it: how many nodes its text is, and each
 * run a highlight covers with the colour it is drawn in (and the line's own colour, for a run left plain).
 */
const paintedRuns = (line: Locator) =>
  line.evaluate((element) => {
    const text = element.querySelector('.line-text');
    const node = text?.firstChild;
    const runs: { from: number; text: string; colour: string }[] = [];
    if (!text || !(node instanceof Text)) return { nodes: text?.childNodes.length ?? 0, runs, plain: '' };
    CSS.highlights.forEach((highlight, name) => {
      if (!name.startsWith('tc')) return;
      for (const range of highlight) {
        if (range.startContainer !== node) continue;
        const colour = getComputedStyle(text, `::highlight(${name})`).color;
        runs.push({ from: range.startOffset, text: node.data.slice(range.startOffset, range.endOffset), colour });
      }
    });
    runs.sort((a, b) => a.from - b.from);
    return { nodes: text.childNodes.length, runs, plain: getComputedStyle(text).color };
  });

/** Token ranges whose text has left the document (a card the list dropped that kept its colours). */
const strayRanges = (page: Page) =>
  page.evaluate(() => {
    let stray = 0;
    CSS.highlights.forEach((highlight, name) => {
      if (name.startsWith('tc')) for (const range of highlight) if (!range.startContainer.isConnected) stray += 1;
    });
    return stray;
  });

test('an opened group of 249 reads draws only the cards near the view, the keyboard reaches every one, and their lines are coloured', async ({
  panel,
}) => {
  const { page } = panel;
  // 249 cards walked one key press at a time: seconds on a quiet machine, more under load.
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const count = 249;
  const files = Array.from({ length: count }, (_, index) => `src/part${index}.ts`);
  for (const [index, file] of files.entries())
    await panel.write(
      file,
      Array.from({ length: 12 }, (_, line) => `export const v${index}_${line}: number = ${line};`).join('\n'),
    );
  panel.script({
    steps: [
      { tool_calls: files.map((file, index) => ({ id: `call_${index}`, name: 'read_file', args: { path: file } })) },
      { text: ['Read them all.'] },
    ],
  });
  await panel.send('Read every part');
  await expect(page.getByTestId('message-assistant').last()).toContainText('Read them all.', { timeout: 60_000 });

  const group = page.getByTestId('read-group');
  await expect(group.getByTestId('read-group-summary')).toHaveText(`Read ${count} files`);
  const toggle = group.getByTestId('read-group-toggle');
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(group.getByRole('feed')).toHaveAttribute('aria-label', `Read ${count} files: each call’s card`);
  const first = group.locator('[data-call-id="call_0"]');
  await expect(first).toBeVisible();
  await expect(first).toHaveAttribute('aria-setsize', String(count));
  // Its lines get their colours — runs of one text node a line, coloured by the page's token
  // highlights, not an element per token — and only a screenful of cards is drawn.
  const firstLine = first.getByTestId('code-line').first();
  await expect.poll(async () => (await paintedRuns(firstLine)).runs.length).toBeGreaterThan(0);
  const painted = await paintedRuns(firstLine);
  expect(painted.nodes).toBe(1);
  expect(painted.runs.map((run) => run.text).join('')).toBe('export const v0_0: number = 0;');
  const keyword = painted.runs.find((run) => run.text === 'export');
  const name = painted.runs.find((run) => run.text.includes('v0_0'));
  expect(keyword?.colour).not.toBe(painted.plain);
  expect(keyword?.colour).not.toBe(name?.colour);
  const drawn = () => group.getByTestId('tool-card').count();
  const bound = 12;
  expect(await drawn()).toBeLessThanOrEqual(bound);

  // Tab goes from the header into the first card; Page Down then walks every card, drawn or not.
  await page.keyboard.press('Tab');
  await focusReaches(page, 1);
  // Presses do not wait for each card: those made while one is drawn count from it.
  for (let place = 2; place <= count; place += 1) {
    await page.keyboard.press('PageDown');
    if (place % 50 === 0) expect(await drawn()).toBeLessThanOrEqual(bound);
  }
  await focusReaches(page, count);
  const last = group.locator(`[data-call-id="call_${count - 1}"]`);
  await expect(last).toBeFocused();
  await expect(last).toBeInViewport();
  await expect(first).toHaveCount(0);
  expect(await drawn()).toBeLessThanOrEqual(bound);
  await expect(last.getByTestId('code-line').first()).toHaveText(`1export const v${count - 1}_0: number = 0;`);
  await expect
    .poll(async () => (await paintedRuns(last.getByTestId('code-line').first())).runs.length)
    .toBeGreaterThan(0);
  // The cards the list dropped on the way took their colours with them.
  expect(await strayRanges(page)).toBe(0);
  await page.keyboard.press('PageUp');
  await focusReaches(page, count - 1);

  // A control focused in a card the list drops (scrolled away with the wheel) has the focus again
  // when its card is drawn again; meanwhile the focus waits on the group's feed, not on the page.
  const card = group.locator(`[data-call-id="call_${count - 1}"]`);
  const button = card.getByTestId('full-content-button');
  await button.focus();
  await page.getByTestId('transcript').hover();
  await expect(async () => {
    await page.mouse.wheel(0, -3000);
    await expect(card).toHaveCount(0, { timeout: 200 });
  }).toPass({ timeout: 20_000 });
  await expect(group.getByRole('feed')).toBeFocused();
  await expect(async () => {
    await page.mouse.wheel(0, 3000);
    await expect(button).toBeFocused({ timeout: 200 });
  }).toPass({ timeout: 20_000 });
  await panel.shot('read-group-many-1280');

  for (const width of [420, 360] as const) {
    await page.setViewportSize({ width, height: 800 });
    await card.scrollIntoViewIfNeeded();
    await expect(card).toBeInViewport();
    expect(await drawn()).toBeLessThanOrEqual(bound);
    await panel.shot(`read-group-many-${width}`);
  }

  // Find's hit in a card deep in the opened group brings that card into view, drawn or not.
  await page.keyboard.press('Control+f');
  await page.getByTestId('find-input').fill('v200_7:');
  const found = group.locator('[data-call-id="call_200"]');
  await expect(found).toBeInViewport({ timeout: 20_000 });
  await expect(found.getByTestId('code-line').nth(7)).toBeInViewport();
  await page.getByTestId('find-close').click();
});
