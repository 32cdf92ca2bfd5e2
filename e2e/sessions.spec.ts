import { expect, test } from './panel-fixture.ts';

// Sessions are durable: a reopened session, and a reloaded window, show the same cards.

test('reopening a session shows the same cards', async ({ panel }) => {
  await panel.write('notes/plan.md', '# Plan\n\n- first\n- second\n');
  panel.script({
    steps: [
      { tool_calls: [{ id: 'call_read', name: 'read_file', args: { path: 'notes/plan.md' } }] },
      { tool_calls: [{ id: 'call_echo', name: 'exec', args: { command: 'echo remembered-output' } }] },
      { text: ['The command printed its line.'] },
    ],
  });
  await panel.send('Echo a line');
  const read = panel.page.locator('[data-testid="tool-card"][data-tool="read_file"]');
  const card = panel.page.locator('[data-testid="tool-card"][data-tool="exec"]');
  await card.getByTestId('approve-once').click();
  await expect(card.getByTestId('exec-output')).toContainText('remembered-output');
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('The command printed its line.');
  const before = await panel.page.getByTestId('transcript').innerText();

  await panel.page.getByTestId('sessions-button').click();
  await panel.page.getByTestId('session-new').click();
  await expect(panel.page.getByTestId('tool-card')).toHaveCount(0);

  // Starting a session may close the list; open it again to pick the old one.
  if (!(await panel.page.getByTestId('session-list').isVisible())) await panel.page.getByTestId('sessions-button').click();
  const item = panel.page.getByTestId('session-item').filter({ hasText: 'Echo a line' });
  await item.getByTestId('session-open').click();
  await expect(card.getByTestId('exec-output')).toContainText('remembered-output');
  await expect(card.getByTestId('card-subtitle')).toHaveText(/echo remembered-output/);
  await expect(read.getByTestId('card-subtitle')).toHaveText('plan.md');
  await expect(read.getByTestId('code-line')).toHaveCount(4);
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('The command printed its line.');
  if (await panel.page.getByTestId('session-list').isVisible()) await panel.page.getByTestId('sessions-button').click();
  await expect.poll(() => panel.page.getByTestId('transcript').innerText()).toBe(before);
  await panel.shot('reopened-session');

  await panel.page.reload();
  await expect(card.getByTestId('exec-output')).toContainText('remembered-output');
  await expect.poll(() => panel.page.getByTestId('transcript').innerText()).toBe(before);
});
