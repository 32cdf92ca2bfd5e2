import { conversationOf } from '../test/agent-kit.ts';
import { expect, test } from './panel-fixture.ts';

// Plan mode: the model reads, then proposes a plan that ends its turn; Approve and start switches
// the mode, seeds the todo list and goes on with the plan; the list ticks as the work is done. Keep
// planning is kept in the session: a reload shows the card answered.

test.use({ homeSettings: { of: () => ({ permission_mode: 'plan' }) } });

const PLAN = '## Fix the greeting\n1. Read hello.txt\n2. Correct the typo';
const todos = (read: string, fix: string) => [
  { id: 'read', text: 'Read hello.txt', status: read },
  { id: 'fix', text: 'Correct the typo', status: fix },
];

for (const width of [1280, 420]) {
  test(`a plan proposed, approved and carried out with its list ticking at ${width} px`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    await panel.write('hello.txt', 'Helo world\n');
    panel.script({
      steps: [
        {
          text: ['I read it; here is the plan.'],
          tool_calls: [
            { id: 'r1', name: 'read_file', args: { path: 'hello.txt' } },
            { id: 'p1', name: 'plan_propose', args: { plan: PLAN, todos: todos('pending', 'pending') } },
          ],
        },
        { tool_calls: [{ id: 't1', name: 'todo_write', args: { todos: todos('done', 'in_progress') } }] },
        {
          tool_calls: [
            {
              id: 'w1',
              name: 'patch_file',
              args: { path: 'hello.txt', edits: [{ old_text: 'Helo', new_text: 'Hello' }] },
            },
          ],
        },
        { tool_calls: [{ id: 't2', name: 'todo_write', args: { todos: todos('done', 'done') } }] },
        { text: ['Fixed the greeting.'] },
      ],
    });
    await expect(page.getByTestId('mode-button')).toHaveText('mode: plan');
    await panel.send('Plan the greeting fix');
    const card = page.getByTestId('plan-card');
    await expect(card).toContainText('Fix the greeting');
    await expect(card.getByTestId('plan-approve')).toBeVisible();
    // The turn ended at the plan: one request, nothing written.
    expect(panel.model.requests).toHaveLength(1);
    await panel.shot(`plan-proposed-${width}`);

    await card.getByTestId('plan-mode').selectOption('auto');
    await card.getByTestId('plan-approve').click();
    await expect(page.getByTestId('message-assistant').last()).toContainText('Fixed the greeting.');
    await expect(card.getByTestId('plan-approved')).toBeVisible();
    await expect(page.getByTestId('mode-button')).toHaveText('mode: auto');
    await expect(page.getByTestId('todo-progress')).toHaveText('2 of 2');
    expect(await panel.read('hello.txt')).toBe('Hello world\n');
    const started = conversationOf(panel.model.requests[1]!.body);
    expect(started.at(-1)).toMatchObject({
      kind: 'user',
      text: expect.stringContaining('<plan>\n## Fix the greeting'),
    });
    await panel.shot(`plan-approved-${width}`);
  });
}

for (const width of [1280, 420, 360]) {
  test(`Keep planning answers the card for good: after a reload it offers no answer at ${width} px`, async ({
    panel,
  }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    panel.script({
      steps: [
        {
          text: ['Here is the plan.'],
          tool_calls: [{ id: 'p1', name: 'plan_propose', args: { plan: PLAN, todos: todos('pending', 'pending') } }],
        },
      ],
    });
    await panel.send('Plan the greeting fix');
    const card = page.getByTestId('plan-card');
    await card.getByTestId('plan-keep').click();
    await expect(card.getByTestId('plan-kept')).toBeVisible();
    await expect(card.getByTestId('plan-approve')).toHaveCount(0);
    await expect(page.getByTestId('composer-input')).toBeFocused();
    await panel.shot(`plan-kept-${width}`);

    await page.reload();
    const reloaded = page.getByTestId('plan-card');
    await expect(reloaded).toContainText('Fix the greeting');
    await expect(reloaded.getByTestId('plan-kept')).toBeVisible();
    await expect(reloaded.getByTestId('plan-approve')).toHaveCount(0);
    await expect(reloaded.getByTestId('plan-keep')).toHaveCount(0);
  });
}

test('the mode button steps through ask, plan and auto', async ({ panel }) => {
  const button = panel.page.getByTestId('mode-button');
  await expect(button).toHaveText('mode: plan');
  await button.click();
  await expect(button).toHaveText('mode: auto');
  await button.click();
  await expect(button).toHaveText('mode: ask');
  await button.click();
  await expect(button).toHaveText('mode: plan');
});
