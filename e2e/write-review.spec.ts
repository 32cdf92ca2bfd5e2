import { expect, test, type Panel } from './panel-fixture.ts';
import { numberedLines, patchScript } from './patch-script.ts';
import { axeOn } from './axe.ts';

// Review before a write lands: a two-edit patch_file asks for approval (writes ask by default) and
// shows both hunks; the person rejects one — by its button at 1280 px, by keys alone at 420 px —
// writes the other with a note, and the file on disk has only the accepted edit. The model's next
// request carries the result naming the rejected hunk, and the card says the same after a reload.

const twoEdits = patchScript(
  'notes.txt',
  [
    { old_text: 'line 2\n', new_text: 'line two\n' },
    { old_text: 'line 18\n', new_text: 'line eighteen\n' },
  ],
  'Patched what you allowed.',
);

/** The review with a rejected hunk: no serious or critical WCAG 2 A/AA violation (axe), and its screenshot. */
async function expectAccessible(panel: Panel, width: number): Promise<void> {
  const axe = await axeOn(panel.page);
  const results = await axe
    .include('[data-testid="approval"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = results.violations.filter((found) => found.impact === 'serious' || found.impact === 'critical');
  expect(serious.map((found) => `${found.id}: ${found.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );
  await panel.shot(`write-review-chosen-${width}`);
}

for (const width of [1280, 420] as const) {
  test(`at ${width} px a rejected hunk is not written and the model is told which`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 860 });
    await panel.write('notes.txt', numberedLines(20));
    panel.script(twoEdits);
    await panel.send('Rename two lines in notes.txt');

    const card = page.locator('[data-testid="tool-card"][data-tool="patch_file"]');
    const review = card.getByTestId('hunk-review');
    await expect(review.getByTestId('review-hunk')).toHaveCount(2);
    await expect(review.getByTestId('review-count')).toContainText('2 hunks');
    const first = review.getByTestId('review-hunk').first();
    await expect(first.getByTestId('patch-diff')).toContainText('line two');
    // Context lines and both line numbers are shown; at 420 px the diff is unified.
    await expect(first.getByTestId('patch-diff')).toContainText('line 3');
    await expect(review.getByTestId('patch-diff-split')).toHaveCount(0);
    await panel.shot(`write-review-asked-${width}`);
    // A hunk's Accept, Reject and Edit stay on one row together, at every width.
    const oneRow = async () => {
      const tops = await Promise.all(
        ['accept', 'reject', 'edit'].map(async (name) =>
          Math.round((await first.getByTestId(`review-hunk-${name}`).boundingBox())?.y ?? -1),
        ),
      );
      return new Set(tops).size === 1;
    };
    expect(await oneRow()).toBe(true);
    if (width === 420) {
      await page.setViewportSize({ width: 360, height: 860 });
      expect(await oneRow()).toBe(true);
      await panel.shot('write-review-asked-360');
      await page.setViewportSize({ width, height: 860 });
    }

    if (width === 1280) {
      await first.getByTestId('review-hunk-reject').click();
      await review.getByTestId('review-note').fill('Keep line 2 as it is.');
      await expect(review.getByTestId('approve-once')).toHaveText('Write 1 of 2 hunks');
      await expectAccessible(panel, width);
      await review.getByTestId('approve-once').click();
    } else {
      // Keyboard alone: the question takes focus; Tab passes Accept all and Reject all to the
      // first hunk, R rejects it, ↓ moves to the next, Tab reaches the note past that hunk's
      // three buttons and its folds, and 1 (outside the text box) writes what is accepted.
      await expect(card.getByTestId('approval')).toBeFocused();
      for (let tab = 0; tab < 3; tab += 1) await page.keyboard.press('Tab');
      await expect(first).toBeFocused();
      await page.keyboard.press('r');
      await expect(first).toHaveAttribute('data-state', 'rejected');
      await page.keyboard.press('ArrowDown');
      await expect(review.getByTestId('review-hunk').nth(1)).toBeFocused();
      // Past its three buttons, the lines between the two hunks (6–14) unfold with Enter, read
      // from the file as it is before the write.
      const second = review.getByTestId('review-hunk').nth(1);
      for (let tab = 0; tab < 4; tab += 1) await page.keyboard.press('Tab');
      await expect(second.getByTestId('diff-fold').first()).toBeFocused();
      await expect(second.getByTestId('diff-fold').first()).toHaveText('⋯ 9 unchanged lines');
      await page.keyboard.press('Enter');
      await expect(second.getByTestId('patch-diff')).toContainText('line 6');
      await expect(second.getByTestId('patch-diff')).toContainText('line 14');
      await panel.shot(`write-review-unfolded-${width}`);
      // Then the rest of the file below the last hunk, then the note.
      await page.keyboard.press('Tab');
      await expect(second.getByTestId('diff-fold')).toBeFocused();
      await expect(second.getByTestId('diff-fold')).toHaveText('⋯ the rest of the file');
      await page.keyboard.press('Tab');
      await expect(review.getByTestId('review-note')).toBeFocused();
      await page.keyboard.type('Keep line 2 as it is.');
      await expectAccessible(panel, width);
      await page.keyboard.press('Tab');
      await expect(review.getByTestId('approve-once')).toBeFocused();
      await page.keyboard.press('1');
    }

    await expect(page.getByTestId('message-assistant').last()).toContainText('Patched what you allowed.');
    expect(await panel.read('notes.txt')).toBe(numberedLines(17) + 'line eighteen\n' + numberedLines(2, 19));
    const toolResult = JSON.stringify(panel.model.requests.at(-1)?.body);
    expect(toolResult).toContain('1 of 2 hunks applied, 1 rejected');
    expect(toolResult).toContain('Hunk 1 (line 2 of the file before): rejected, not written');
    expect(toolResult).toContain('Note from the person: Keep line 2 as it is.');

    await expect(card.getByTestId('review-summary')).toHaveText('Reviewed: 2 hunks: 1 applied, 1 rejected');
    await expect(card.getByTestId('review-outcome-hunk').first()).toHaveAttribute('data-state', 'rejected');
    await panel.shot(`write-review-done-${width}`);

    // Durable: the session's replay draws the same card.
    await page.reload();
    const replayed = page.locator('[data-testid="tool-card"][data-tool="patch_file"]');
    await expect(replayed.getByTestId('review-summary')).toHaveText('Reviewed: 2 hunks: 1 applied, 1 rejected');
    await expect(replayed.getByTestId('review-outcome-note')).toHaveText('Your note: Keep line 2 as it is.');
  });
}
