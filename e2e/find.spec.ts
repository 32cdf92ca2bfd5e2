import { expect, test } from './panel-fixture.ts';
import { axeOn } from './axe.ts';

// Ctrl/Cmd+F searches the whole transcript, cards the virtualised list has not rendered included:
// it scrolls to the hit and marks it; Enter and Shift+Enter step through the hits, Esc closes the
// bar and gives the focus back.

const FILES = 16;

for (const width of [1280, 420] as const) {
  test(`find scrolls to an off-screen card and steps through the hits at ${width} px`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    for (let i = 0; i < FILES; i++) {
      const marker = i === 0 || i === 12 ? `needle-mark in file ${i}\n` : '';
      await panel.write(`src/f${i}.ts`, `${marker}export const value${i} = ${i};\n`);
    }
    // One read a step, each after a line of text: consecutive reads would fold into one group card.
    panel.script({
      steps: [
        ...Array.from({ length: FILES }, (_, i) => ({
          text: [`Reading f${i}.ts.`],
          tool_calls: [{ id: `call_read_${i}`, name: 'read_file', args: { path: `src/f${i}.ts` } }],
        })),
        { text: ['Read them all.'] },
      ],
    });
    await panel.send('Read every file');
    await expect(page.getByTestId('message-assistant').last()).toContainText('Read them all.', { timeout: 30_000 });
    const first = page.locator('[data-testid="tool-card"][data-call-id="call_read_0"]');
    // The list is virtualised: the first card is not even in the page at the bottom.
    await expect(first).toHaveCount(0);

    await page.getByTestId('composer-input').press('Control+f');
    const input = page.getByTestId('find-input');
    await expect(input).toBeFocused();
    await input.fill('NEEDLE-mark');
    await expect(page.getByTestId('find-status')).toHaveText('1 of 2');
    await expect(first).toBeInViewport();
    await expect(page.locator('[data-find-current]')).toContainText('f0.ts');
    await panel.shot(`find-hit-${width}`);

    await input.press('Enter');
    await expect(page.getByTestId('find-status')).toHaveText('2 of 2');
    await expect(page.locator('[data-testid="tool-card"][data-call-id="call_read_12"]')).toBeInViewport();
    await expect(page.locator('[data-find-current]')).toContainText('f12.ts');
    await input.press('Enter');
    await expect(page.getByTestId('find-status')).toHaveText('1 of 2');
    await input.press('Shift+Enter');
    await expect(page.getByTestId('find-status')).toHaveText('2 of 2');

    await input.fill('no such text anywhere');
    await expect(page.getByTestId('find-status')).toHaveText('No matches');
    const axe = await (await axeOn(page)).include('[data-testid="find-bar"]').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

    await input.press('Escape');
    await expect(page.getByTestId('find-bar')).toHaveCount(0);
    await expect(page.getByTestId('composer-input')).toBeFocused();
    await expect(page.locator('[data-find-current]')).toHaveCount(0);
  });
}
