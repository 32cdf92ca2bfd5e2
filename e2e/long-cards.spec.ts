import { expect, test } from './panel-fixture.ts';

// A long read, expanded, at a desktop width and as a narrow side panel: its header stays at the top
// of the transcript while its lines scroll past, and it folds again from its top.

const LONG = Array.from({ length: 300 }, (_, i) => `const line${i + 1} = ${i + 1};`).join('\n') + '\n';

for (const width of [1280, 420] as const) {
  test(`a long read keeps its header in view and folds from the top at ${width} px`, async ({ panel }) => {
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
    await expect(card.getByTestId('code-line')).toHaveCount(300);

    const scroller = panel.page.locator('.transcript-scroller');
    const line = card.getByTestId('code-line').nth(150);
    await line.scrollIntoViewIfNeeded();
    const header = card.locator('.card-header');
    const top = await scroller.evaluate((element) => element.getBoundingClientRect().top);
    const headerBox = await header.boundingBox();
    const cardBox = await card.boundingBox();
    expect(cardBox && cardBox.y).toBeLessThan(top - 100);
    expect(headerBox && Math.abs(headerBox.y - top)).toBeLessThanOrEqual(2);
    await panel.shot(`long-read-sticky-${width}`);

    await header.evaluate((element) => element.scrollIntoView());
    await card.getByTestId('show-fewer-top').click();
    await expect(card.getByTestId('code-line')).toHaveCount(40);
  });
}
