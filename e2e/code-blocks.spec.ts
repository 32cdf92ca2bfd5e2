import { expect, test } from './panel-fixture.ts';
import { expectNoSeriousViolations } from './screens.ts';

// A code block in an answer, at a desktop width and as narrow side panels: its language label, its
// code in colour — the first line as much as the rest, every colour readable (axe) in both themes —
// and Copy putting exactly the code on the clipboard.

const CODE = ['function greet(name: string) { // hi', '  return `Hello, ${name}!`;', '}'].join('\n');

for (const width of [1280, 420, 360] as const) {
  test(`a highlighted code block copies its code at ${width} px`, async ({ panel }) => {
    await panel.page.setViewportSize({ width, height: 800 });
    const origin = new URL(panel.page.url()).origin;
    await panel.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    panel.script({ steps: [{ text: [`Here is the function:\n\n\`\`\`ts\n${CODE}\n\`\`\`\n\nUse it as you like.`] }] });
    await panel.send('Write a greet function');

    const block = panel.page.getByTestId('md-code');
    await expect(block.getByTestId('md-code-language')).toHaveText('ts');
    await expect(block.locator('pre')).toHaveAttribute('data-highlighted', 'true');
    const keyword = block.locator('.md-code-line span', { hasText: 'function' }).first();
    const colour = await keyword.evaluate((element) => getComputedStyle(element).color);
    const plain = await block.locator('pre').evaluate((element) => getComputedStyle(element).color);
    expect(colour).not.toBe(plain);
    // The first line is coloured token by token to its end, not left in the colour of one of them.
    const first = block.locator('.md-code-line').first();
    const colourOf = (text: string) =>
      first
        .locator('span', { hasText: text })
        .first()
        .evaluate((element) => getComputedStyle(element).color);
    const colours = [await colourOf('function'), await colourOf('greet'), await colourOf('// hi')];
    expect(new Set(colours).size).toBe(3);
    await expectNoSeriousViolations(panel.page, '[data-testid="md-code"]');

    await block.getByTestId('code-copy').click();
    await expect(block.getByTestId('code-copy')).toHaveText('Copied');
    expect(await panel.page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
    await panel.shot(`code-block-${width}`);
    if (width === 360) {
      await panel.page.emulateMedia({ colorScheme: 'dark' });
      await expect(panel.page.locator('html')).toHaveAttribute('data-theme', 'dark');
      await expectNoSeriousViolations(panel.page, '[data-testid="md-code"]');
      await panel.shot('code-block-dark-360');
    }
  });
}
