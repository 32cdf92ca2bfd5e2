import { conversationOf } from '../test/agent-kit.ts';
import { expect, test } from './panel-fixture.ts';

// Working alongside a running turn: Enter steers it (the message enters after the running call),
// Alt+Enter and Queue queue the next turn; the waiting messages sit above the message box, to edit,
// reorder and remove until they go; Stop holds them until Send now.

const WAIT_FOR_GO = 'while [ ! -f go ]; do sleep 0.05; done; echo went';

for (const width of [1280, 420]) {
  test(`steer a running turn and queue the next ones at ${width} px`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    panel.script({
      steps: [
        { tool_calls: [{ id: 'call_wait', name: 'exec', args: { command: WAIT_FOR_GO } }] },
        { text: ['Noted the README too.'] },
        { text: ['Summary written.'] },
        { text: ['Tests listed.'] },
      ],
    });
    await panel.send('Run the long command');
    const card = page.locator('[data-testid="tool-card"][data-tool="exec"]');
    await card.getByTestId('approve-once').click();
    await expect(card.getByTestId('card-running')).toBeVisible();

    const input = page.getByTestId('composer-input');
    await expect(page.getByTestId('composer-keys')).toContainText('Enter steer · Alt+Enter queue');
    await expect(page.getByTestId('composer-send')).toHaveText('Steer');
    // Each message is taken (the box empties) before the next is written, as a person sees it go.
    await input.fill('Also check the README');
    await input.press('Enter');
    await expect(input).toHaveValue('');
    await input.fill('Then write the summary');
    await input.press('Alt+Enter');
    await expect(input).toHaveValue('');
    await input.fill('A message to remove');
    await page.getByTestId('composer-queue').click();
    await expect(input).toHaveValue('');
    await input.fill('List the tests');
    await input.press('Alt+Enter');

    const items = page.getByTestId('queue-item');
    await expect(items).toHaveCount(4);
    await expect(items.nth(0)).toHaveAttribute('data-mode', 'steer');
    // Edit one, remove one, move one up.
    await items.nth(1).getByTestId('queue-edit-button').click();
    const edit = page.getByTestId('queue-edit');
    await expect(edit).toBeFocused();
    await edit.fill('Then write a short summary');
    await edit.press('Enter');
    await expect(items.nth(1).getByTestId('queue-text')).toHaveText('Then write a short summary');
    await items.nth(2).getByTestId('queue-remove').click();
    await expect(items).toHaveCount(3);
    await expect(page.getByTestId('queue-title')).toHaveText('3 waiting');
    await panel.shot(`queue-waiting-${width}`);
    if (width === 420) {
      await page.setViewportSize({ width: 360, height: 800 });
      await panel.shot('queue-waiting-360');
      await page.setViewportSize({ width, height: 800 });
    }

    await panel.write('go', '');
    await expect(page.getByTestId('message-assistant').last()).toContainText('Tests listed.');
    await expect(page.getByTestId('queue-list')).toHaveCount(0);
    const users = page.getByTestId('message-user');
    await expect(users).toHaveCount(4);
    await expect(users.nth(1)).toHaveAttribute('data-steer', 'true');
    await expect(users.nth(1)).toContainText('steered in');
    await expect(users.nth(2)).toContainText('Then write a short summary');
    await expect(users.nth(3)).toContainText('List the tests');
    // The steer reached the model after the command's result, before its next request.
    const second = conversationOf(panel.model.requests[1]!.body);
    expect(second.at(-2)).toMatchObject({ kind: 'tool', id: 'call_wait' });
    expect(second.at(-1)).toEqual({ kind: 'user', text: 'Also check the README' });
    expect(panel.model.requests).toHaveLength(4);
    await expect(page.getByTestId('composer-send')).toHaveText('Send');
    await panel.shot(`queue-sent-${width}`);
  });
}

test('Stop keeps the waiting messages, held, until Send now', async ({ panel }) => {
  const { page } = panel;
  panel.script({
    steps: [
      { tool_calls: [{ id: 'call_wait', name: 'exec', args: { command: WAIT_FOR_GO } }] },
      { text: ['Held one answered.'] },
    ],
  });
  await panel.send('Run the long command');
  const card = page.locator('[data-testid="tool-card"][data-tool="exec"]');
  await card.getByTestId('approve-once').click();
  await expect(card.getByTestId('card-running')).toBeVisible();
  const input = page.getByTestId('composer-input');
  await input.fill('Do this afterwards');
  await input.press('Alt+Enter');
  await expect(page.getByTestId('queue-item')).toHaveCount(1);
  await page.getByTestId('composer-stop').click();
  await expect(page.getByTestId('queue-title')).toHaveText('1 waiting · held');
  await expect(page.getByTestId('queue-send-now')).toBeVisible();
  await panel.shot('queue-held-after-stop');
  expect(panel.model.requests).toHaveLength(1);
  await page.getByTestId('queue-send-now').click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('Held one answered.');
  await expect(page.getByTestId('queue-list')).toHaveCount(0);
});
