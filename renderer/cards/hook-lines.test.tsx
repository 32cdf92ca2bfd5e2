// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import type { HookRanEvent, StatusEvent } from '../../protocol/events.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { reduceStatusEvents } from '../store/transcript-reducer.ts';
import { emptyTranscript } from '../store/transcript-types.ts';
import { CardFrame } from './ToolCard.tsx';

// A hook's line on the card of the call it acted on, from the session's events as the panel's
// reducer folds them (live and replayed alike), with its output one click away.

afterEach(cleanup);

const actions = new Proxy({}, { get: () => async () => undefined }) as PanelActions;

function run(fields: Partial<HookRanEvent>): HookRanEvent {
  return {
    type: 'hook_ran',
    hook_event: 'PostToolUse',
    command: 'npx prettier --write notes.md',
    source: '.claude/settings.json:7',
    call_id: 'c1',
    decision: 'none',
    status: 'exited',
    exit_code: 0,
    duration_ms: 120,
    stdout: 'notes.md 12ms\n',
    stderr: '',
    ...fields,
  };
}

function cardAfter(events: StatusEvent[]) {
  const state = reduceStatusEvents(emptyTranscript(), [
    { type: 'tool_started', call_id: 'c1', name: 'write_file', args: { path: 'notes.md' } },
    ...events,
    {
      type: 'tool_completed',
      call_id: 'c1',
      name: 'write_file',
      execution_time: 5,
      is_error: false,
      result: { kind: 'text', text: 'ok' },
    },
  ]);
  const call = state.calls['c1'];
  if (!call) throw new Error('no card');
  render(
    <ActionsContext.Provider value={actions}>
      <CardFrame call={call} />
    </ActionsContext.Provider>,
  );
}

it('shows "formatted by" for a PostToolUse hook that changed the file, and its output on a click', () => {
  cardAfter([run({ changed: ['notes.md'] })]);
  const line = screen.getByTestId('hook-line');
  expect(line.textContent).toBe('↳formatted by `npx prettier --write notes.md`');
  expect(screen.queryByTestId('hook-output')).toBeNull();
  const toggle = screen.getByRole('button', { name: /formatted by/ });
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  fireEvent.click(toggle);
  const output = screen.getByTestId('hook-output');
  expect(output.textContent).toContain('PostToolUse · exit code 0');
  expect(output.textContent).toContain('.claude/settings.json:7');
  expect(output.textContent).toContain('notes.md 12ms');
});

it('shows a PreToolUse deny with its reason, and a failed hook with its notice', () => {
  cardAfter([
    run({ hook_event: 'PreToolUse', decision: 'deny', reason: 'force-push is not allowed', exit_code: 2, stdout: '' }),
    run({
      decision: 'failed',
      notice: 'The hook timed out after 5 s and was stopped. It decided nothing.',
      status: 'timed_out',
      exit_code: null,
    }),
  ]);
  const lines = screen.getAllByTestId('hook-line').map((line) => [line.dataset['decision'], line.textContent]);
  expect(lines).toEqual([
    ['deny', '↳denied by hook: force-push is not allowed'],
    [
      'failed',
      '↳hook `npx prettier --write notes.md` failed: The hook timed out after 5 s and was stopped. It decided nothing.',
    ],
  ]);
});

it('turns a Stop hook that blocked into a notice of the turn', () => {
  const state = reduceStatusEvents(emptyTranscript(), [
    run({
      hook_event: 'Stop',
      command: 'npm test',
      call_id: undefined,
      turn_id: 't1',
      decision: 'block',
      reason: 'tests are failing',
    }) as StatusEvent,
  ]);
  const notices = Object.values(state.messages).filter((message) => message.kind === 'notice');
  expect(notices.map((notice) => notice.kind === 'notice' && notice.text)).toEqual([
    'Stop hook `npm test` blocked it: tests are failing',
  ]);
});
