import { expect, test } from './panel-fixture.ts';

// A long read, expanded, at a desktop width and as a narrow side panel: its lines scroll inside the
// card, which keeps a bounded height with its header in view; the keyboard scrolls it; it folds again
// from its top.

const LONG = Array.from({ length: 300 }, (_, i) => `const line${i + 1} = ${i + 1};`).join('\n') + '\n';

for (const width of [1280, 420] as const) {
  test(`a long read scrolls inside its card and folds from the top at ${width} px`, async ({ panel }) => {
    await panel.page.setViewportSize({ width, height: 800 });
    await panel.write('src/long.ts', LONG);
    panel.script({
      steps: [
        { tool_calls: [{ id: 'call_read', name: 'read_file', args: { path: 'src/long.ts' } }] },
        { text: ['Read.'] },
      ],
    });
    await panel.send('Read src/long.ts');
    const card = panel.page.locator('[data-testid="tool-card"][data-tool="read_file"]');
    await card.getByRole('button', { name: /Show all/ }).click();
    const lines = card.getByTestId('code-lines');
    await expect(lines).toHaveAttribute('data-lines', '300');
    expect(await card.getByTestId('code-line').count()).toBeLessThan(300);
    expect((await card.boundingBox())?.height).toBeLessThan(800);

    await lines.focus();
    await panel.page.keyboard.press('End');
    const last = card.getByTestId('code-line').last();
    await expect(last).toContainText('const line300 = 300;');
    await expect(last).toBeInViewport();
    await expect(card.locator('.card-header')).toBeInViewport();
    await panel.shot(`long-read-scrolled-${width}`);

    await card.getByTestId('show-fewer-top').click();
    await expect(card.getByTestId('code-line')).toHaveCount(40);
  });
}
