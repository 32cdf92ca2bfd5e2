import { expect, test, type Panel } from './panel-fixture.ts';

// A command's card as a person watches it (the live-progress contract): the output grows in place
// while the command runs, then the card settles on the exit badge, the duration (once) and the
// whole output. A failing command shows its exit code and stderr, a quiet success is the `✓ ok`
// card, and Stop on the running card cancels that command alone: labelled `cancelled`, it says why
// and keeps what it printed, the model receives that result and the turn goes on (Esc, in
// turns.spec.ts, stops it). A reopened session's card has only the echo: the end of a long output,
// and a note saying so.

const execCard = (panel: Panel) => panel.page.locator('[data-testid="tool-card"][data-tool="exec"]');

function runs(command: string, answer = 'Done.') {
  return { steps: [{ tool_calls: [{ id: 'call_exec', name: 'exec', args: { command } }] }, { text: [answer] }] };
}

/** The card's state and output read in one go, so both describe the same moment. */
function snapshot(panel: Panel) {
  return execCard(panel).evaluate((card) => ({
    state: card.getAttribute('data-state'),
    running: card.querySelector('[data-testid="card-running"]') !== null,
    output: card.querySelector('[data-testid="exec-output"]')?.textContent ?? '',
  }));
}

interface Seen {
  state: string | null;
  lines: number;
  /** Whether the output element is the one the first report created (the card grows in place). */
  sameElement: boolean;
}

/** Records every state of the card's output from now on, so no intermediate state is missed. */
function watchOutput(panel: Panel) {
  return execCard(panel).evaluate((card) => {
    const seen: Seen[] = [];
    let first: Element | null = null;
    const record = () => {
      const output = card.querySelector('[data-testid="exec-output"]');
      if (!output) return;
      first ??= output;
      const lines = (output.textContent ?? '').split('\n').filter((line) => line !== '').length;
      const state = card.getAttribute('data-state');
      const last = seen.at(-1);
      if (last?.state !== state || last.lines !== lines) seen.push({ state, lines, sameElement: output === first });
    };
    new MutationObserver(record).observe(card, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
    (window as unknown as { execSeen: Seen[] }).execSeen = seen;
  });
}

const seenOutput = (panel: Panel) => panel.page.evaluate(() => (window as unknown as { execSeen: Seen[] }).execSeen);

test('a running command card grows in place, then shows its exit badge, duration and every line', async ({ panel }) => {
  panel.script(runs('for i in 1 2 3 4 5 6; do echo line $i; sleep 0.6; done', 'Six lines.'));
  await panel.send('Print six lines slowly');
  const card = execCard(panel);
  await expect(card.getByTestId('card-subtitle')).toHaveText('for i in 1 2 3 4 5 6; do echo line $i; sleep 0.6; done');
  await watchOutput(panel);
  await card.getByTestId('approve-once').click();

  // The first line shows while the last is still more than a second away.
  await expect(card.getByTestId('exec-output')).toContainText('line 1');
  const live = await snapshot(panel);
  expect(live).toMatchObject({ state: 'running', running: true });
  expect(live.output).toMatch(/^line 1\n/);
  expect(live.output).not.toContain('line 6');
  await expect(card.getByTestId('card-stop')).toBeVisible();
  await panel.shot('exec-running');

  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(card.getByTestId('card-glyph')).toBeVisible();
  await expect(card.getByTestId('card-running')).toHaveCount(0);
  await expect(card.getByTestId('card-stop')).toHaveCount(0);
  await expect(card.getByTestId('exec-exit')).toHaveText('exit 0');
  await expect(card.getByTestId('exec-exit')).toHaveAttribute('data-exit-code', '0');
  await expect(card.getByTestId('card-time')).toHaveText(/^\d+(\.\d)? s$/);
  // The duration shows once, in the header, not again beside the badge.
  expect((await card.innerText()).match(/\b\d+(\.\d+)? m?s\b/g)).toHaveLength(1);
  await expect(card.getByTestId('exec-output')).toHaveText(
    ['line 1', 'line 2', 'line 3', 'line 4', 'line 5', 'line 6', ''].join('\n'),
  );
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Six lines.');
  await panel.shot('exec-finished');

  // While running, one output block went through several partial states, growing each time.
  const running = (await seenOutput(panel)).filter((seen) => seen.state === 'running');
  expect(running.filter((seen) => seen.lines < 6).length).toBeGreaterThanOrEqual(2);
  expect(running.every((seen) => seen.sameElement)).toBe(true);
  const counts = running.map((seen) => seen.lines);
  expect(counts).toEqual([...counts].sort((a, b) => a - b));
});

test('a failing command shows its exit code and what it wrote to stderr', async ({ panel }) => {
  panel.script(runs('echo checking; echo "no such thing" >&2; exit 3', 'It failed.'));
  await panel.send('Run the failing check');
  const card = execCard(panel);
  await card.getByTestId('approve-once').click();
  await expect(card).toHaveAttribute('data-state', 'error');
  await expect(card.getByTestId('exec-exit')).toHaveText('exit 3');
  await expect(card.getByTestId('exec-exit')).toHaveAttribute('data-exit-code', '3');
  await expect(card.getByTestId('exec-output')).toContainText('checking');
  await expect(card.getByTestId('exec-output')).toContainText('no such thing');
  await expect(card.getByTestId('card-done')).toHaveCount(0);
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('It failed.');
  await panel.shot('exec-exit-3');
});

test('a quiet long command is the ok card on one header line, its command shown whole on demand when cut', async ({
  panel,
}) => {
  const command = `test -d . && test -n "${'a long argument that keeps going '.repeat(5).trim()}" && true`;
  panel.script(runs(command, 'Nothing to say.'));
  await panel.page.setViewportSize({ width: 1280, height: 800 });
  await panel.send('Run a quiet command');
  const card = execCard(panel);
  await card.getByTestId('approve-once').click();
  await expect(card.getByTestId('card-done')).toHaveText('✓ ok');
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(card.getByTestId('exec-output')).toHaveCount(0);
  await expect(card.getByTestId('exec-exit')).toHaveCount(0);
  await expect(card.getByTestId('card-time')).toBeVisible();
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Nothing to say.');
  // The header stays one row: the command gives way, cut with an ellipsis, before anything wraps.
  const header = card.locator('.card-header');
  const oneRow = async () => (await header.evaluate((element) => element.getBoundingClientRect().height)) < 40;
  expect(await oneRow()).toBe(true);
  await panel.shot('exec-long-command-1280');

  for (const width of [420, 360]) {
    await panel.page.setViewportSize({ width, height: 800 });
    const subtitle = card.getByTestId('card-subtitle');
    await expect(subtitle).toHaveAttribute('aria-expanded', 'false');
    expect(await oneRow()).toBe(true);
    await panel.shot(`exec-long-command-${width}`);
  }
  // Keyboard: the cut command is a button; Enter shows it whole on a row of its own, Enter again folds it.
  const subtitle = card.getByTestId('card-subtitle');
  await subtitle.focus();
  await expect(subtitle).toBeFocused();
  await panel.page.keyboard.press('Enter');
  await expect(subtitle).toHaveAttribute('aria-expanded', 'true');
  await expect(subtitle).toHaveText(command);
  expect(await subtitle.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  await panel.shot('exec-long-command-shown-360');
  await panel.page.keyboard.press('Enter');
  await expect(subtitle).toHaveAttribute('aria-expanded', 'false');
});

test('Stop on the running card cancels that command alone: the model gets its output so far and the turn goes on', async ({
  panel,
}) => {
  panel.script(
    runs('for i in $(seq 1 200); do echo tick $i; sleep 0.2; done', 'The ticking was cancelled after a few ticks.'),
  );
  await panel.send('Tick for a long while');
  const card = execCard(panel);
  await card.getByTestId('approve-once').click();
  await expect(card.getByTestId('exec-output')).toContainText('tick 2');
  await card.getByTestId('card-stop').click();
  await expect(card).toHaveAttribute('data-state', 'error');
  await expect(card.getByTestId('exec-exit')).toHaveText('cancelled');
  await expect(card.getByTestId('exec-exit')).toHaveAttribute('title', /^Cancelled and stopped/);
  await expect(card.getByTestId('card-error')).toHaveText(/^Cancelled and stopped \(SIG[A-Z]+\); output so far below$/);
  await expect(card.getByTestId('exec-output')).toContainText('tick 1');
  await expect(card.getByTestId('exec-output')).not.toContainText('tick 200');
  await expect(card.getByTestId('card-stop')).toHaveCount(0);

  // The turn went on: the model's follow-up answer shows, and the turn ends as completed, not stopped.
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText(
    'The ticking was cancelled after a few ticks.',
  );
  await expect(panel.page.getByTestId('composer-stop')).toBeHidden();
  await expect(panel.page.getByTestId('message-notice')).toHaveCount(0);
  await expect(panel.page.getByTestId('error-banner')).toHaveCount(0);
  await panel.shot('exec-cancelled');

  // The second model request carries the cancelled call's result, with the output it printed.
  expect(panel.model.requests).toHaveLength(2);
  const messages = panel.model.requests[1]?.body['messages'] as Array<{
    role: string;
    tool_call_id?: string;
    content?: unknown;
  }>;
  const result = messages.find((message) => message.role === 'tool' && message.tool_call_id === 'call_exec');
  const content = typeof result?.content === 'string' ? result.content : JSON.stringify(result?.content);
  expect(content).toMatch(/^Cancelled and stopped \(SIG[A-Z]+\); output so far below/);
  expect(content).toContain('tick 1');
});

test('a reopened session shows the end of a long output and says it is only the end', async ({ panel }) => {
  panel.script(runs('seq -f "line %g" 1 3000', 'Printed three thousand lines.'));
  await panel.send('Print three thousand numbered lines');
  const card = execCard(panel);
  await card.getByTestId('approve-once').click();
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Printed three thousand lines.');

  await panel.page.getByTestId('sessions-button').click();
  await panel.page.getByTestId('session-new').click();
  await expect(panel.page.getByTestId('tool-card')).toHaveCount(0);
  // Starting a session may close the list; open it again to pick the old one.
  if (!(await panel.page.getByTestId('session-list').isVisible()))
    await panel.page.getByTestId('sessions-button').click();
  await panel.page
    .getByTestId('session-item')
    .filter({ hasText: 'Print three thousand numbered lines' })
    .getByTestId('session-open')
    .click();

  // The replayed card holds only the echo: the last whole lines, up to the very last one.
  await expect(card.getByTestId('exec-exit')).toHaveText('exit 0');
  await expect(card.getByTestId('exec-output')).toContainText('line 3000');
  const lines = ((await card.getByTestId('exec-output').textContent()) ?? '').split('\n');
  expect(lines.at(-1)).toBe('');
  expect(lines.at(-2)).toBe('line 3000');
  const first = Number(/^line (\d+)$/.exec(lines[0] ?? '')?.[1]);
  expect(first).toBeGreaterThan(2500);
  expect(lines.slice(0, -1)).toEqual(Array.from({ length: 3001 - first }, (_, index) => `line ${first + index}`));
  await expect(card.getByTestId('exec-tail')).toHaveText(
    new RegExp(
      `^Showing the last ${3001 - first} of 3000 lines \\(.+ of .+\\); the complete output is in .+\\.txt\\.$`,
    ),
  );
  // The list shows the reopened rows once it has measured them.
  await expect(card.getByTestId('exec-tail')).toBeVisible();
  await panel.shot('exec-reopened-long-output');
});
