import { expect, test } from './panel-fixture.ts';

// The built-in demo model, picked in the panel: the whole panel works without a key — a listing,
// a new file, a read and a patch, each on its own card, with the person approving the writes.

test('the demo model plays its session through the panel', async ({ panel }) => {
  await panel.page.getByTestId('model-picker').selectOption('demo');
  await expect(panel.page.getByTestId('model-picker')).toHaveValue('demo');
  await panel.send('Show me what you can do');

  const cards = panel.page.getByTestId('tool-card');
  // Writes ask first; "Always" allows writing AETHER_DEMO.md, so the patch of it goes through.
  await panel.page.getByTestId('approve-session').first().click();
  await expect(cards.and(panel.page.locator('[data-tool="patch_file"]'))).toHaveAttribute('data-state', 'done', {
    timeout: 20_000,
  });
  await expect(cards.and(panel.page.locator('[data-tool="read_file"]')).getByTestId('card-subtitle')).toHaveText(
    'AETHER_DEMO.md',
  );
  await expect(cards.and(panel.page.locator('[data-tool="patch_file"]')).getByTestId('patch-stats')).toBeVisible();
  await expect(panel.page.getByTestId('composer-stop')).toBeHidden({ timeout: 20_000 });
  expect(await panel.read('AETHER_DEMO.md')).toContain('patched by the demo model');
  await panel.shot('demo-session');
});

test('turning down the demo write reads as one calm line on its card', async ({ panel }) => {
  const { page } = panel;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('model-picker').selectOption('demo');
  await panel.send('Show me what you can do');
  const card = page.locator('[data-testid="tool-card"][data-tool="write_file"]');
  await card.getByTestId('approve-deny').click();
  await expect(card.getByTestId('approval-answer')).toHaveText('You rejected the change to AETHER_DEMO.md');
  await expect(page.getByTestId('message-assistant').last()).toContainText('You turned down the write', {
    timeout: 20_000,
  });
  // Said once, in the quiet colour of an answer: no error text, no red border or glyph.
  await expect(card.getByTestId('card-error')).toHaveCount(0);
  await expect(card.getByText(/rejected|denied/i)).toHaveCount(1);
  await expect(card).toHaveClass(/is-denied/);
  const red = await card.evaluate((element) => {
    const error = getComputedStyle(document.documentElement).getPropertyValue('--error').trim();
    const probe = document.createElement('span');
    probe.style.color = error;
    document.body.append(probe);
    const errorColour = getComputedStyle(probe).color;
    probe.remove();
    return [element, ...element.querySelectorAll('*')].some((node) => {
      const style = getComputedStyle(node);
      return (
        style.color === errorColour || style.borderTopColor === errorColour || style.backgroundColor === errorColour
      );
    });
  });
  expect(red).toBe(false);
  for (const width of [1280, 420, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await card.scrollIntoViewIfNeeded();
    await panel.shot(`demo-write-denied-${width}`);
  }
});
