import { conversationOf } from '../test/agent-kit.ts';
import { expect, test } from './panel-fixture.ts';

// The todo list the model keeps: a card where it changed, and a live checklist pinned above the
// message box that the person can tick, add to and remove from; the model hears of the change.

const WAIT_FOR_GO = 'while [ ! -f go ]; do sleep 0.05; done; echo went';
const todos = (fix: string, test: string) => [
  { id: 'read', text: 'Read the code', status: 'done' },
  { id: 'fix', text: 'Fix the parser bug', status: fix },
  { id: 'test', text: 'Run the tests', status: test },
];

for (const width of [1280, 420]) {
  test(`the todo checklist updates live and the person's tick reaches the model at ${width} px`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    panel.script({
      steps: [
        { tool_calls: [{ id: 'todo1', name: 'todo_write', args: { todos: todos('in_progress', 'pending') } }] },
        { tool_calls: [{ id: 'call_wait', name: 'exec', args: { command: WAIT_FOR_GO } }] },
        { tool_calls: [{ id: 'todo2', name: 'todo_write', args: { todos: todos('done', 'done') } }] },
        { text: ['All three done.'] },
      ],
    });
    await panel.send('Fix the parser');
    const checklist = page.getByTestId('todo-checklist');
    await expect(checklist.getByTestId('todo-progress')).toHaveText('1 of 3');
    await expect(checklist).toContainText('Fix the parser bug');
    const card = page.locator('[data-testid="tool-card"][data-tool="exec"]');
    await card.getByTestId('approve-once').click();
    await expect(card.getByTestId('card-running')).toBeVisible();

    // The person ticks one and adds one while the command runs.
    // The box shows what was saved: it ticks once the session has the new list.
    const tick = checklist.getByRole('checkbox', { name: /Run the tests/ });
    await tick.click();
    await expect(tick).toBeChecked();
    await expect(checklist.getByTestId('todo-progress')).toHaveText('2 of 3');
    await checklist.getByTestId('todo-add-input').fill('Update the changelog');
    await checklist.getByTestId('todo-add-input').press('Enter');
    await expect(checklist.getByTestId('todo-item')).toHaveCount(4);
    await expect(checklist.getByTestId('todo-progress')).toHaveText('2 of 4');
    await panel.shot(`todos-live-${width}`);
    if (width === 420) {
      await page.setViewportSize({ width: 360, height: 800 });
      await panel.shot('todos-live-360');
      await page.setViewportSize({ width, height: 800 });
    }

    await panel.write('go', '');
    await expect(page.getByTestId('message-assistant').last()).toContainText('All three done.');
    await expect(checklist.getByTestId('todo-progress')).toHaveText('3 of 3');
    // The model's own list replaced the person's: its card shows it where it changed.
    await expect(page.locator('[data-testid="tool-card"][data-tool="todo_write"]')).toHaveCount(2);
    const told = conversationOf(panel.model.requests[2]!.body).at(-1);
    expect(told).toMatchObject({ kind: 'user', text: expect.stringContaining('[x] test: Run the tests') });
    expect(told).toMatchObject({ text: expect.stringContaining('[ ] p4: Update the changelog') });
    await panel.shot(`todos-done-${width}`);
  });
}
