import { expect, test } from './panel-fixture.ts';

// A code block in an answer, at a desktop width and as a narrow side panel: its language label,
// its code in colour, and Copy putting exactly the code on the clipboard.

const CODE = ['export function greet(name: string): string {', '  return `Hello, ${name}!`;', '}'].join('\n');

for (const width of [1280, 420] as const) {
  test(`a highlighted code block copies its code at ${width} px`, async ({ panel }) => {
    await panel.page.setViewportSize({ width, height: 800 });
    const origin = new URL(panel.page.url()).origin;
    await panel.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    panel.script({ steps: [{ text: [`Here is the function:\n\n\`\`\`ts\n${CODE}\n\`\`\`\n\nUse it as you like.`] }] });
    await panel.send('Write a greet function');

    const block = panel.page.getByTestId('md-code');
    await expect(block.getByTestId('md-code-language')).toHaveText('ts');
    await expect(block.locator('pre')).toHaveAttribute('data-highlighted', 'true');
    const keyword = block.locator('.md-code-line span', { hasText: 'export' }).first();
    const colour = await keyword.evaluate((element) => getComputedStyle(element).color);
    const plain = await block.locator('pre').evaluate((element) => getComputedStyle(element).color);
    expect(colour).not.toBe(plain);

    await block.getByTestId('code-copy').click();
    await expect(block.getByTestId('code-copy')).toHaveText('Copied');
    expect(await panel.page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
    await panel.shot(`code-block-${width}`);
  });
}
