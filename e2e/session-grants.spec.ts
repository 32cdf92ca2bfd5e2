import { expect, test, type Panel } from './panel-fixture.ts';
import { axeOn } from './axe.ts';

// "Always for this session" says what it covers, and Settings lists what was granted in this
// session with Revoke: a revoked grant's command asks again.

async function runEcho(panel: Panel, id: string) {
  panel.script({
    steps: [{ tool_calls: [{ id, name: 'exec', args: { command: 'echo granted' } }] }, { text: [`Done ${id}.`] }],
  });
  await panel.send(`Run it (${id})`);
  return panel.page.locator(`[data-testid="tool-card"][data-call-id="${id}"]`);
}

for (const width of [1280, 420] as const) {
  test(`an Always grant says what it covers and can be revoked in Settings at ${width} px`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    const first = await runEcho(panel, 'call_one');
    await expect(first.getByTestId('approval-scope')).toHaveText('the command echo granted in this workspace');
    await expect(first.getByTestId('approve-session')).toHaveAccessibleName(
      'Always for this session: the command echo granted in this workspace',
    );
    await first.getByTestId('approve-session').click();
    await expect(page.getByTestId('message-assistant').last()).toContainText('Done call_one.');

    // Granted: the same command runs without asking.
    const second = await runEcho(panel, 'call_two');
    await expect(page.getByTestId('message-assistant').last()).toContainText('Done call_two.');
    await expect(second.getByTestId('exec-output')).toContainText('granted');
    await expect(second.getByTestId('approval')).toHaveCount(0);

    await page.getByTestId('settings-button').click();
    const grants = page.getByTestId('session-grants');
    await grants.scrollIntoViewIfNeeded();
    const grant = grants.getByTestId('session-grant');
    await expect(grant).toHaveCount(1);
    await expect(grant).toHaveAttribute('data-rule', 'exec(echo granted)');
    await expect(grant).toContainText('the command echo granted in this workspace');
    const axe = await (await axeOn(page)).include('[data-testid="session-grants"]').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await panel.shot(`session-grants-${width}`);
    await grant.getByTestId('grant-revoke').click();
    await expect(grants.getByTestId('grant-status')).toContainText('Revoked');
    await expect(grants.getByTestId('session-grants-empty')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('settings')).toHaveCount(0);

    // Revoked: it asks again.
    const third = await runEcho(panel, 'call_three');
    await expect(third.getByTestId('approval')).toBeVisible();
    await third.getByTestId('approve-deny').click();
    await expect(page.getByTestId('message-assistant').last()).toContainText('Done call_three.');
  });
}
