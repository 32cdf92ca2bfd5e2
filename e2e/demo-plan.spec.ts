import { expect, test } from './panel-fixture.ts';

// The demo model in plan mode, in the panel: it writes nothing and proposes its tour as a plan;
// Approve and start in auto carries it out (the note written, read back and patched). At 1280,
// 420 and 360 px.

test.use({ homeSettings: { of: () => ({ permission_mode: 'plan' }) } });

for (const width of [1280, 420, 360]) {
  test(`the demo proposes a plan in plan mode and carries it out once approved at ${width} px`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    await expect(page.getByTestId('mode-button')).toContainText('plan');
    await page.getByTestId('model-picker').selectOption('demo');
    await expect(page.getByTestId('model-picker')).toHaveValue('demo');
    await panel.send('Show me the demo');
    const card = page.getByTestId('plan-card');
    await expect(card).toContainText('Write AETHER_DEMO.md');
    await expect(page.getByTestId('message-assistant').first()).toContainText('This session is in plan mode');
    await expect(page.getByText('--allow write')).toHaveCount(0);
    await panel.shot(`demo-plan-proposed-${width}`);

    await card.getByTestId('plan-mode').selectOption('auto');
    await card.getByTestId('plan-approve').click();
    await expect(page.getByTestId('message-assistant').last()).toContainText('Patched: AETHER_DEMO.md', {
      timeout: 20_000,
    });
    await expect(page.getByTestId('mode-button')).toContainText('auto');
    await expect(page.getByTestId('composer-stop')).toHaveCount(0);
    expect(await panel.read('AETHER_DEMO.md')).toContain('Status: patched by the demo model.');
    await panel.shot(`demo-plan-carried-out-${width}`);
  });
}
