import { expect, test } from './panel-fixture.ts';

// A parent hands two pieces of work to agents: an explorer that answers, and a general agent whose
// write needs the person's approval — asked on its card in the parent's view, naming the agent.
// One card's transcript unfolds in place with the child's own cards; the context meter's status
// shows what the agents cost apart from the parent; the turn's Changes card lists the agent's file as
// its. At the desktop width, at 420 and at 360 px.

const CHILDREN = {
  streams: [
    {
      match: 'task explore-notes',
      steps: [
        {
          tool_calls: [{ id: 'l1', name: 'list_dir', args: { path: 'notes' } }],
          usage: { input_tokens: 40_000, output_tokens: 2_000 },
        },
        { text: ['notes/ holds **todo.md** and **ideas.md**.'], usage: { input_tokens: 41_000, output_tokens: 1_000 } },
      ],
    },
    {
      match: 'task write-summary',
      steps: [
        {
          text: ['Writing the summary.'],
          tool_calls: [{ id: 'w1', name: 'write_file', args: { path: 'summary.md', content: '# Summary\n' } }],
          usage: { input_tokens: 30_000, output_tokens: 1_000 },
        },
        { text: ['I wrote summary.md.'], usage: { input_tokens: 31_000, output_tokens: 500 } },
      ],
    },
  ],
};

// Prices for the fixture's model, so every step has a cost.
test.use({
  homeSettings: { of: (model: string) => ({ model_overrides: { [model]: { prices: { input: 1, output: 5 } } } }) },
});

for (const width of [1280, 420, 360]) {
  test(`a parent with two agents: one asks through the parent, one unfolds its transcript, the cost is split at ${width} px`, async ({
    panel,
  }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 900 });
    await panel.write('notes/todo.md', '- ship\n');
    await panel.write('notes/ideas.md', '- agents\n');
    panel.script({
      ...CHILDREN,
      steps: [
        {
          tool_calls: [
            {
              id: 'a-explore',
              name: 'agent',
              args: { agent: 'explore', task: 'What is in notes/? (task explore-notes)' },
            },
            { id: 'a-write', name: 'agent', args: { agent: 'general', task: 'Write summary.md (task write-summary)' } },
          ],
          usage: { input_tokens: 20_000, output_tokens: 400 },
        },
        { text: ['Both agents are done.'], usage: { input_tokens: 21_000, output_tokens: 100 } },
      ],
    });
    await panel.send('Look at the notes and write a summary');

    const writer = page.locator('[data-testid="tool-card"][data-call-id="a-write"]');
    const question = writer.getByTestId('approval');
    await expect(question).toContainText('Agent general');
    await expect(question).toContainText('summary.md');
    await panel.shot(`agents-approval-${width}`);
    await writer.getByTestId('approve-once').click();

    await expect(page.getByTestId('message-assistant').last()).toContainText('Both agents are done.', {
      timeout: 30_000,
    });
    await expect(writer.getByTestId('agent-summary')).toContainText('changed summary.md');
    expect(await panel.read('summary.md')).toBe('# Summary\n');

    const explorer = page.locator('[data-testid="tool-card"][data-call-id="a-explore"]');
    await expect(explorer.getByTestId('agent-answer')).toHaveText('notes/ holds todo.md and ideas.md.');
    await explorer.getByTestId('agent-transcript-toggle').click();
    const transcript = explorer.getByTestId('agent-transcript');
    await expect(transcript.locator('[data-testid="tool-card"][data-tool="list_dir"]')).toBeVisible();
    await expect(transcript.getByTestId('agent-child-text').last()).toContainText('notes/ holds');

    await panel.shot(`agents-transcript-${width}`);
    // The writer's transcript unfolds too, with the child's write card; nothing is wider than the window.
    await writer.getByTestId('agent-transcript-toggle').click();
    await expect(
      writer.getByTestId('agent-transcript').locator('[data-testid="tool-card"][data-tool="write_file"]'),
    ).toBeVisible();
    await writer.getByTestId('agent-transcript').scrollIntoViewIfNeeded();
    await panel.shot(`agents-writer-transcript-${width}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // The turn's Changes card lists the file the child wrote, marked as the agent's.
    const changed = page.getByTestId('changes-card').getByTestId('changes-file').filter({ hasText: 'summary.md' });
    await expect(changed.getByTestId('changes-by-agent')).toHaveText('· by agent general');
    await changed.scrollIntoViewIfNeeded();
    await panel.shot(`agents-changes-${width}`);

    await page.getByTestId('context-meter').click();
    await expect(page.getByTestId('status-cost')).toContainText('of which agents: $');
    await panel.shot(`agents-done-${width}`);
    await page.keyboard.press('Escape');

    // The session list shows the parent once, its agents' sessions under it.
    await page.getByTestId('sessions-button').click();
    const parent = page.getByTestId('session-item').filter({ hasText: 'Look at the notes' });
    await expect(page.getByTestId('session-item')).toHaveCount(1);
    await expect(parent.getByTestId('session-agent')).toHaveCount(2);
    await expect(parent.getByTestId('session-agents')).toContainText('explore');
    await expect(parent.getByTestId('session-agents')).toContainText('general');
    await panel.shot(`agents-session-list-${width}`);
  });
}

for (const width of [420, 360]) {
  test(`the review agent is handed the turn's diff, shown under Task given in its transcript at ${width} px`, async ({
    panel,
  }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 900 });
    await panel.write('app.js', 'const port = 80;\nlisten(port);\n');
    panel.script({
      steps: [
        {
          tool_calls: [
            {
              id: 'fix',
              name: 'patch_file',
              args: { path: 'app.js', edits: [{ old_text: 'port = 80', new_text: 'port = 8080' }] },
            },
          ],
        },
        {
          tool_calls: [
            { id: 'a-review', name: 'agent', args: { agent: 'review', task: 'Review it (task review-port)' } },
          ],
        },
        { text: ['Reviewed.'] },
      ],
      streams: [
        {
          match: 'task review-port',
          steps: [{ text: ['- app.js:1 the port is hard-coded; read it from the environment.'] }],
        },
      ],
    });
    await panel.send('Move to port 8080 and have it reviewed');
    const approval = page.getByTestId('approve-once');
    await approval.click();
    const review = page.locator('[data-testid="tool-card"][data-call-id="a-review"]');
    await expect(review.getByTestId('agent-answer')).toContainText('the port is hard-coded', { timeout: 30_000 });
    await review.getByTestId('agent-transcript-toggle').click();
    const given = review.getByTestId('agent-child-task');
    await given.locator('summary').click();
    await expect(given).toContainText('- app.js: modified, +1 −1');
    await expect(given).toContainText('+const port = 8080;');
    await given.scrollIntoViewIfNeeded();
    await panel.shot(`agents-review-given-${width}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}

test('the session list starts a session as an agent, which answers as that agent', async ({ panel }) => {
  const { page } = panel;
  await page.setViewportSize({ width: 420, height: 800 });
  panel.script({ steps: [{ text: ['I only read here.'] }] });
  await page.getByTestId('sessions-button').click();
  const menu = page.getByTestId('session-new-as');
  await expect(menu.locator('option[value="explore"]')).toHaveCount(1);
  await panel.shot('agents-new-session-as-420');
  await menu.selectOption('explore');
  await expect(page.getByTestId('session-list')).toBeHidden();
  await panel.send('What is here?');
  await expect(page.getByTestId('message-assistant').last()).toContainText('I only read here.');
  const request = panel.model.requests.at(-1)!.body;
  expect(JSON.stringify(request['messages'])).toContain('You explore the workspace to answer one question.');
  const tools = (request['tools'] as { function: { name: string } }[]).map((tool) => tool.function.name);
  expect(tools).toContain('read_file');
  expect(tools).not.toContain('write_file');
});
