import { expect, test, type Panel } from './panel-fixture.ts';
import { numberedLines, patchScript } from './patch-script.ts';

// File links and folded diff lines, at a desktop width and as a narrow side panel: a path in an
// answer opens the file in a read card at the line (keyboard: Tab to it, Enter, Esc gives the focus
// back), a search result opens its file at its line, and a diff's unchanged lines unfold from the file.

const APP = Array.from({ length: 300 }, (_, i) => `export const value${i + 1} = ${i + 1};`).join('\n') + '\n';

/** Tab from where the person clicked until `target` has the focus; fails after a few presses. */
async function tabTo(panel: Panel, target: ReturnType<Panel['page']['locator']>): Promise<void> {
  for (let presses = 0; presses < 8; presses += 1) {
    await panel.page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  await expect(target).toBeFocused();
}

for (const width of [1280, 420, 360] as const) {
  test(`a file link in an answer opens a read card at its line at ${width} px`, async ({ panel }) => {
    await panel.page.setViewportSize({ width, height: 800 });
    await panel.write('src/app.ts', APP);
    const more = Array.from({ length: 40 }, (_, index) => `Line ${index + 1} of the explanation.`).join('\n\n');
    panel.script({
      steps: [{ text: [`The value is set in \`src/app.ts:240\`; docs/missing.md has nothing.\n\n${more}`] }],
    });
    await panel.send('Where is value240 set?');
    const answer = panel.page.getByTestId('message-assistant').last();
    await expect(answer).toContainText('Line 40 of the explanation.');
    // Scrolled back to the link, away from the newest line: "Jump to latest" offers the way back.
    await panel.page.locator('.transcript-scroller').evaluate((scroller) => scroller.scrollTo(0, 0));
    const jump = panel.page.getByTestId('jump-latest');
    await expect(jump).toBeVisible();
    const link = answer.getByTestId('file-link');
    await expect(link).toHaveCount(1);
    await expect(link).toHaveText('src/app.ts:240');
    await expect(link).toHaveAttribute('data-line', '240');
    // A path that names no file stays text.
    await expect(answer).toContainText('docs/missing.md has nothing');

    // Keyboard: from the answer's text, Tab reaches the link; Enter opens the file there.
    await answer.click({ position: { x: 2, y: 2 } });
    await tabTo(panel, link);
    await panel.page.keyboard.press('Enter');
    const viewer = panel.page.getByTestId('file-viewer');
    await expect(viewer).toBeVisible();
    await expect(viewer.getByTestId('file-viewer-path')).toHaveText('src/app.ts');
    await expect(viewer.getByTestId('file-viewer-range')).toContainText('Lines 40–300 of 300');
    const marked = viewer.locator('[data-marked]');
    await expect(marked).toContainText('export const value240 = 240;');
    await expect(marked).toBeInViewport();
    // The dialog has the panel's attention: the pill does not float over it.
    await expect(jump).toHaveCount(0);
    await panel.shot(`file-link-viewer-${width}`);

    await panel.page.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
    await expect(link).toBeFocused();
    await expect(jump).toBeVisible();
    // Esc closed the viewer only: the turn and the transcript are as they were.
    await expect(answer).toContainText('docs/missing.md');
    await panel.shot(`file-link-closed-${width}`);
  });

  test(`a diff's unchanged lines unfold from the file at ${width} px`, async ({ panel }) => {
    await panel.page.setViewportSize({ width, height: 800 });
    await panel.write('notes.txt', numberedLines(60));
    panel.script(
      patchScript(
        'notes.txt',
        [
          { old_text: 'line 10\n', new_text: 'line ten\n' },
          { old_text: 'line 50\n', new_text: 'line fifty\n' },
        ],
        'Patched.',
      ),
    );
    await panel.send('Spell out two numbers');
    const card = panel.page.locator('[data-testid="tool-card"][data-tool="patch_file"]');
    await card.getByTestId('approve-once').click();
    await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Patched.');
    const diff = card.getByTestId('patch-diff');
    const folds = card.getByTestId('diff-fold');
    await expect(folds).toHaveText(['⋯ 6 unchanged lines', '⋯ 33 unchanged lines', '⋯ the rest of the file']);
    await panel.shot(`diff-folded-${width}`);

    // Keyboard: the fold is a button; Enter unfolds it.
    await folds.nth(1).focus();
    await panel.page.keyboard.press('Enter');
    await expect(folds).toHaveCount(2);
    const unfolded = diff.locator('[data-kind="context"]', { hasText: /^\s*30\s*30\s*line 30$/ });
    await expect(unfolded).toHaveCount(1);
    await expect(diff.locator('[data-kind="context"]')).toHaveCount(12 + 33);
    await expect(diff).not.toContainText('changed since this diff');
    await panel.shot(`diff-unfolded-${width}`);

    // The lines after the last hunk, to the end of the file.
    await card.getByText('⋯ the rest of the file').click();
    await expect(diff.locator('[data-kind="context"]', { hasText: /line 60$/ })).toHaveCount(1);
    await expect(diff).toContainText('End of the file.');
  });
}

test('a search result opens its file at its line', async ({ panel }) => {
  await panel.page.setViewportSize({ width: 1280, height: 800 });
  await panel.write('src/app.ts', APP);
  panel.script({
    steps: [
      { tool_calls: [{ id: 'call_search', name: 'search_files', args: { pattern: 'value123 =' } }] },
      { text: ['Found it.'] },
    ],
  });
  await panel.send('Find value123');
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Found it.');
  const card = panel.page.locator('[data-testid="tool-card"][data-tool="search_files"]');
  const result = card.getByTestId('file-link');
  await expect(result).toHaveText('src/app.ts:123');
  await result.click();
  const viewer = panel.page.getByTestId('file-viewer');
  await expect(viewer.locator('[data-marked]')).toContainText('export const value123 = 123;');
  await viewer.getByTestId('file-viewer-close').click();
  await expect(viewer).toHaveCount(0);
  await expect(result).toBeFocused();
});
