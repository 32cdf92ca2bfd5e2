import { expect, test } from './panel-fixture.ts';

// Turn control as a person uses it: Esc stops a turn mid-stream.

test('Esc stops a streaming turn', async ({ panel }) => {
  panel.script({ steps: [{ text: Array.from({ length: 400 }, (_, index) => `word${index} `), chunk_delay_ms: 40 }] });
  await panel.send('Talk for a long while');
  const answer = panel.page.getByTestId('message-assistant').last();
  await expect(answer).toContainText('word3');
  await expect(panel.page.getByTestId('composer-stop')).toBeVisible();
  await panel.page.keyboard.press('Escape');
  await expect(panel.page.getByTestId('message-notice').last()).toContainText('Stopped');
  await expect(panel.page.getByTestId('composer-stop')).toBeHidden();
  const shown = await answer.textContent();
  expect(shown).not.toContain('word399');
  await expect(panel.page.getByTestId('message-notice').last()).toBeVisible();
  await expect(answer).toBeVisible();
  await panel.shot('stopped-turn');
});

test('Esc stops a running command and its card says so', async ({ panel }) => {
  panel.script({
    steps: [
      { tool_calls: [{ id: 'call_sleep', name: 'exec', args: { command: 'sleep 30' } }] },
      { text: ['Never sent.'] },
    ],
  });
  await panel.send('Wait for a while');
  const card = panel.page.locator('[data-testid="tool-card"][data-tool="exec"]');
  await card.getByTestId('approve-once').click();
  await expect(card.getByTestId('card-running')).toBeVisible();
  await panel.page.keyboard.press('Escape');
  await expect(card).not.toHaveAttribute('data-state', 'running');
  await expect(card).not.toHaveAttribute('data-state', 'done');
  await expect(card).toContainText('Cancelled');
  await expect(panel.page.getByTestId('message-notice').last()).toContainText('Stopped');
  await expect(panel.page.getByText('Never sent.')).toHaveCount(0);
  await expect(card).toBeVisible();
  await panel.shot('stopped-command');
});
