import { expect, test } from './panel-fixture.ts';

// The permission gate through the panel: a command waits for the person; Allow runs it, Deny
// keeps it from running, and the model hears which.

const touch = {
  steps: [
    { tool_calls: [{ id: 'call_touch', name: 'exec', args: { command: 'touch made-by-command.txt' } }] },
    { text: ['Finished.'] },
  ],
};

test('Allow once runs the command the card asked about', async ({ panel }) => {
  panel.script(touch);
  await panel.send('Make a file with a command');
  const card = panel.page.locator('[data-testid="tool-card"][data-tool="exec"]');
  await expect(card.getByTestId('approval-detail')).toContainText('touch made-by-command.txt');
  await expect(card.getByTestId('approve-once')).toBeVisible();
  await panel.shot('approval-asked');
  await card.getByTestId('approve-once').click();
  await expect(card.getByTestId('card-done')).toHaveText('✓ ok');
  await expect(card.getByTestId('approval-answer')).toContainText('Allowed once');
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Finished.');
  await expect
    .poll(() =>
      panel.read('made-by-command.txt').then(
        () => true,
        () => false,
      ),
    )
    .toBe(true);
  await panel.shot('done-card');
});

test('Deny keeps the command from running and the card shows why', async ({ panel }) => {
  panel.script(touch);
  await panel.send('Make a file with a command');
  const card = panel.page.locator('[data-testid="tool-card"][data-tool="exec"]');
  await card.getByTestId('approve-deny').click();
  await expect(card.getByTestId('approval-answer')).toHaveText('You denied: Run a command');
  await expect(card).toHaveAttribute('data-state', 'error');
  // The denial is said once: the answer line, not again as the call's error below it.
  await expect(card.getByText(/denied/i)).toHaveCount(1);
  await expect(card.getByTestId('card-done')).toHaveCount(0);
  await expect(card).toHaveAttribute('data-state', 'error');
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Finished.');
  await expect(panel.read('made-by-command.txt')).rejects.toThrow();
  const toolMessage = JSON.stringify(panel.model.requests.at(-1)?.body);
  expect(toolMessage).toContain('Denied by the user');
  await panel.shot('denied-card');
});
