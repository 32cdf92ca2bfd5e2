import { expect, test } from './panel-fixture.ts';

// The first-run offer appears only when the selected model cannot answer without a key: the
// fixture's compat: endpoint needs none, an Anthropic model does (this spec expects no
// ANTHROPIC_API_KEY in the environment, as on the machines the suite runs on).

test('no key offer for a model that needs no key; the offer once a model needs a missing one', async ({ panel }) => {
  await expect(panel.page.getByTestId('model-picker')).toHaveValue(/^compat:/);
  await expect(panel.page.getByTestId('welcome')).toHaveCount(0);

  await panel.page.getByTestId('model-picker').selectOption('anthropic:claude-sonnet-4-5');
  const welcome = panel.page.getByTestId('welcome');
  await expect(welcome).toContainText('No API key yet');
  await expect(welcome).toContainText('anthropic:claude-sonnet-4-5 needs an Anthropic API key');
  await panel.shot('welcome-missing-key');

  // Back to the keyless endpoint: the offer goes, though still no key is stored anywhere.
  const compat = await panel.page.getByTestId('model-picker').locator('option[value^="compat:"]').getAttribute('value');
  await panel.page.getByTestId('model-picker').selectOption(compat ?? '');
  await expect(welcome).toHaveCount(0);

  await panel.page.getByTestId('model-picker').selectOption('anthropic:claude-sonnet-4-5');
  await welcome.getByTestId('use-demo-model').click();
  await expect(panel.page.getByTestId('model-picker')).toHaveValue('demo');
  await expect(welcome).toHaveCount(0);
});
