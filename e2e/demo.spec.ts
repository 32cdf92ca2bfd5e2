import { expect, test } from './panel-fixture.ts';

// The built-in demo model, picked in the panel: the whole panel works without a key — a listing,
// a new file, a read and a patch, each on its own card, with the person approving the writes.

test('the demo model plays its session through the panel', async ({ panel }) => {
  await panel.page.getByTestId('model-picker').selectOption('demo');
  await expect(panel.page.getByTestId('footer-model')).toHaveText(/demo/);
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
