import { expect, test, type Panel } from './panel-fixture.ts';

// The Code Mode card as a person sees it: one `run_code` call is one card. It holds the program
// (collapsed), the nested calls as a trace, and the logs then the return value; the calls the
// program made never get cards of their own, and a nested call's question is asked in that card.

const READ_BOTH = [
  "const one = await tools.read_file({ path: 'one.txt' });",
  "console.log('first:', one.content);",
  "const two = await tools.read_file({ path: 'two.txt' });",
  "console.log('second:', two.content);",
  "return one.content + '+' + two.content;",
].join('\n');

const EXEC_BOTH = [
  "const one = await tools.exec({ command: 'echo CODE_ONE' });",
  "const two = await tools.exec({ command: 'echo CODE_TWO' });",
  "console.log('ran', one.exit_code, two.exit_code);",
  "return one.output.trim() + '+' + two.output.trim();",
].join('\n');

function runsCode(code: string, answer: string) {
  return { steps: [{ tool_calls: [{ id: 'call_code', name: 'run_code', args: { code } }] }, { text: [answer] }] };
}

const codeCard = (panel: Panel) => panel.page.locator('[data-testid="tool-card"][data-tool="run_code"]');

/** What the model received for the run_code call: the tool message of the request after it. */
function toolMessageOf(panel: Panel): unknown {
  const request = panel.model.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
  return request.messages.find((message) => message.role === 'tool')?.content;
}

test('one card holds the logs, the return value and the trace of the nested calls', async ({ panel }) => {
  await panel.write('one.txt', 'CODE_ONE');
  await panel.write('two.txt', 'CODE_TWO');
  panel.script(runsCode(READ_BOTH, 'Both files read.'));
  await panel.send('Read both files in one program');
  const card = codeCard(panel);
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Both files read.');

  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(card).toHaveAttribute('data-view', 'code-mode');
  await expect(card.getByTestId('code-result')).toHaveText('first: CODE_ONE\nsecond: CODE_TWO\nCODE_ONE+CODE_TWO');
  await expect(panel.page.getByTestId('tool-card')).toHaveCount(1);
  await expect(panel.page.locator('[data-testid="tool-card"][data-tool="read_file"]')).toHaveCount(0);

  const trace = card.getByTestId('code-trace-entry');
  await expect(trace).toHaveCount(2);
  await expect(trace.nth(0)).toHaveAttribute('data-state', 'ok');
  await expect(trace.nth(0)).toContainText('read_file');
  await expect(trace.nth(0)).toContainText('one.txt');
  await expect(trace.nth(1)).toContainText('read_file');
  await expect(trace.nth(1)).toContainText('two.txt');
  // A nested call opens with its own echo, shown as its own card would show it: numbered lines.
  await trace.nth(1).getByRole('button').click();
  await expect(card.getByTestId('code-trace-echo').getByTestId('code-line')).toHaveText(['1CODE_TWO']);
  await expect(card).not.toContainText('<content>');

  await expect(card.getByTestId('code-program')).toHaveCount(0);
  await card.getByTestId('code-program-toggle').click();
  await expect(card.getByTestId('code-program')).toContainText("return one.content + '+' + two.content;");
  await panel.shot('code-mode-card');

  await card.getByTestId('full-content-button').click();
  const shown = await card.getByTestId('full-content').locator('pre').textContent();
  expect(shown).toBe(toolMessageOf(panel));
  expect(shown).toBe('first: CODE_ONE\nsecond: CODE_TWO\nCODE_ONE+CODE_TWO');
  await panel.shot('code-mode-full-content');
});

test('a nested command asks in the program card and gets no card of its own', async ({ panel }) => {
  panel.script(runsCode(EXEC_BOTH, 'Both commands ran.'));
  await panel.send('Run two commands in one program');
  const card = codeCard(panel);
  await expect(card.getByTestId('approval-title')).toContainText('exec asks:');
  await expect(card.getByTestId('approval-detail')).toHaveText('echo CODE_ONE');
  // "Always" allows exactly this command; the program's other command still asks.
  await expect(card.getByTestId('approve-session')).toHaveText(
    'Always for this session: the command echo CODE_ONE in this workspace',
  );
  await card.getByTestId('approve-session').click();
  await expect(card.getByTestId('approval-detail')).toHaveText('echo CODE_TWO');
  await card.getByTestId('approve-once').click();

  await expect(card.getByTestId('code-result')).toHaveText('ran 0 0\nCODE_ONE+CODE_TWO');
  await expect(card.getByTestId('approval-answer')).toHaveCount(2);
  await expect(card.getByTestId('approval-answer').first()).toHaveAttribute('data-answer', 'session');
  await expect(card.getByTestId('code-trace-entry')).toHaveCount(2);
  await expect(card.getByTestId('code-trace-entry').nth(1)).toContainText('echo CODE_TWO');
  await expect(panel.page.getByTestId('tool-card')).toHaveCount(1);
  await expect(panel.page.locator('[data-testid="tool-card"][data-tool="exec"]')).toHaveCount(0);
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Both commands ran.');
  expect(toolMessageOf(panel)).toBe('ran 0 0\nCODE_ONE+CODE_TWO');
  await panel.shot('code-mode-nested-exec');
});
