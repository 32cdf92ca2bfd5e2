import { createHash } from 'node:crypto';
import { expect, test } from './panel-fixture.ts';
import { expectNoSeriousViolations } from './screens.ts';

// A one-word rename across many lines, at a desktop width and as a narrow side panel: the diff
// names the file, numbers the old and new lines, and marks the renamed word in each changed line.
// A function inserted above an edited line is not paired with it: only the edited line has marks.
// At 360 px lines wider than the card scroll sideways, from the keyboard too.

const before = Array.from({ length: 12 }, (_, i) => `export const v${i} = userName.length + ${i};`).join('\n') + '\n';
const after = before.replaceAll('userName', 'accountName');
const sha256 = createHash('sha256').update(before).digest('hex');
const mathBefore = 'function add(a, b) {\n  return a + b;\n}\n\nmodule.exports = { add };\n';
const mathAfter =
  'function add(a, b) {\n  return a + b;\n}\n\nfunction subtract(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add, subtract };\n';

for (const width of [1280, 420, 360] as const) {
  test(`a one-word rename reads as small marked changes at ${width} px`, async ({ panel }) => {
    await panel.page.setViewportSize({ width, height: 800 });
    await panel.write('src/names.ts', before);
    await panel.write('src/math.js', mathBefore);
    panel.script({
      steps: [
        {
          tool_calls: [
            {
              id: 'call_write',
              name: 'write_file',
              args: { path: 'src/names.ts', content: after, expected_sha256: sha256 },
            },
            {
              id: 'call_math',
              name: 'write_file',
              args: {
                path: 'src/math.js',
                content: mathAfter,
                expected_sha256: createHash('sha256').update(mathBefore).digest('hex'),
              },
            },
          ],
        },
        { text: ['Renamed.'] },
      ],
    });
    await panel.send('Rename userName to accountName');
    const card = panel.page.locator('[data-testid="tool-card"][data-tool="write_file"]').first();
    await card.getByTestId('approve-once').click();
    const math = panel.page.locator('[data-testid="tool-card"][data-tool="write_file"]').nth(1);
    await math.getByTestId('approve-once').click();
    const diff = card.getByTestId('patch-diff');
    await expect(diff.locator('[data-kind="file"]')).toHaveText('src/names.ts');
    await expect(diff).not.toContainText('+++');
    await expect(diff.getByTestId('diff-word')).toHaveCount(24);
    await expect(diff.getByTestId('diff-word').first()).toHaveText('userName');
    await expect(diff.locator('[data-kind="add"] .diff-word').first()).toHaveText('accountName');
    await expect(diff.locator('[data-kind="remove"]').first().locator('.diff-no').first()).toHaveText('1');
    await expect(diff.locator('[data-kind="add"]').last().locator('.diff-no').nth(1)).toHaveText('12');
    await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Renamed.');
    const keyword = diff
      .locator('[data-kind="context"], [data-kind="add"]')
      .first()
      .locator('.diff-text span[style]')
      .first();
    await expect(keyword).toHaveText('export');
    const plain = await diff
      .locator('[data-kind="add"] .diff-sign')
      .first()
      .evaluate((e) => getComputedStyle(e).color);
    expect(await keyword.evaluate((e) => getComputedStyle(e).color)).not.toBe(plain);
    await panel.shot(`diff-rename-${width}`);

    // The inserted function is drawn as added lines only; the export line beside its old self marks `subtract`.
    const mathDiff = math.getByTestId('patch-diff');
    await expect(mathDiff.locator('[data-kind="add"]', { hasText: 'function subtract' })).toBeVisible();
    await expect(
      mathDiff.locator('[data-kind="add"]', { hasText: 'function subtract' }).locator('.diff-word'),
    ).toHaveCount(0);
    await expect(mathDiff.locator('[data-kind="remove"] .diff-word')).toHaveCount(0);
    await expect(mathDiff.locator('[data-kind="add"] .diff-word')).toContainText(['subtract']);
    await math.scrollIntoViewIfNeeded();
    await panel.shot(`diff-unrelated-lines-${width}`);
    if (width === 360) {
      // Lines wider than the card scroll sideways, from the keyboard too, and keep their backgrounds.
      await expect(mathDiff).toHaveAttribute('tabindex', '0');
      await expectNoSeriousViolations(panel.page, '[data-testid="tool-card"][data-tool="write_file"]');
      await mathDiff.focus();
      for (let step = 0; step < 4; step += 1) await panel.page.keyboard.press('ArrowRight');
      await expect.poll(() => mathDiff.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
      const added = mathDiff.locator('[data-kind="add"]').last();
      expect(await added.evaluate((row) => row.getBoundingClientRect().width)).toBeGreaterThanOrEqual(
        await mathDiff.evaluate((element) => element.scrollWidth - 1),
      );
      await panel.shot('diff-scrolled-360');
    }

    if (width < 760) {
      await expect(card.getByTestId('diff-layout')).toHaveCount(0);
      return;
    }
    await card.getByTestId('diff-layout').click();
    const split = card.getByTestId('patch-diff-split');
    await expect(split.getByTestId('diff-pair')).toHaveCount(12);
    const firstPair = split.getByTestId('diff-pair').first();
    await expect(firstPair.locator('[data-kind="remove"] .diff-word')).toHaveText('userName');
    await expect(firstPair.locator('[data-kind="add"] .diff-word')).toHaveText('accountName');
    await panel.shot('diff-side-by-side-1280');
    await card.getByTestId('diff-layout').click();
    await expect(card.getByTestId('patch-diff')).toBeVisible();
  });
}
