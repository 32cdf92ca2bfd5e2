import { describe, expect, it } from 'vitest';
import type { EchoShape } from '../../protocol/echo.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { processInfo } from '../../test/process-info.ts';
import { reduceStatus, reduceStatusEvents } from './transcript-reducer.ts';
import { emptyTranscript, type TranscriptState } from './transcript-types.ts';

const run = (events: StatusEvent[]): TranscriptState => reduceStatusEvents(emptyTranscript(), events);

const started = (call_id: string, name = 'exec', args: unknown = { command: 'ls' }): StatusEvent => ({
  type: 'tool_started',
  call_id,
  name,
  args,
  turn_id: 't1',
});
const completed = (call_id: string, result: unknown, is_error = false, name = 'exec'): StatusEvent => ({
  type: 'tool_completed',
  call_id,
  name,
  execution_time: 12,
  is_error,
  result: typeof result === 'string' ? { kind: 'text', text: result } : (result as EchoShape),
});
const text = (value: string) => ({ kind: 'text', text: value });
const progress = (call_id: string, text: string, cut_bytes = 0): StatusEvent => ({
  type: 'tool_progress',
  call_id,
  progress: { text, cut_bytes, total_bytes: text.length + cut_bytes },
});

describe('reduceStatus', () => {
  it('keeps each background process’s last process_state by the call that started it, for its card', () => {
    const info = processInfo();
    const state = run([
      started('c1', 'exec', { command: 'npm run dev', background: true }),
      { type: 'process_state', process: info },
      { type: 'process_state', process: { ...info, state: 'stopped', end_reason: 'app_closed', uptime_ms: 9000 } },
    ]);
    expect(state.processes['c1']).toMatchObject({ id: 'p1', state: 'stopped', end_reason: 'app_closed' });
    expect(Object.keys(state.processes)).toEqual(['c1']);
  });

  it('turns tool_started into a running card in transcript order', () => {
    const state = run([{ type: 'user_message', turn_id: 't1', text: 'hi' }, started('c1')]);
    expect(state.order).toEqual([
      { kind: 'message', id: 'user:t1' },
      { kind: 'call', id: 'c1' },
    ]);
    expect(state.calls['c1']).toMatchObject({ name: 'exec', state: 'running', args: { command: 'ls' }, turn_id: 't1' });
  });

  it('replaces live output wholesale on tool_progress and keeps the card running', () => {
    const state = run([started('c1'), progress('c1', 'one\n'), progress('c1', 'one\ntwo\n', 5)]);
    expect(state.calls['c1']?.state).toBe('running');
    expect(state.calls['c1']?.progress).toEqual({ text: 'one\ntwo\n', cut_bytes: 5, total_bytes: 13 });
  });

  it('ignores a progress report that arrives after the call finished', () => {
    const state = run([started('c1'), completed('c1', 'Exit code 0 · 3 ms\n(no output)'), progress('c1', 'late')]);
    expect(state.calls['c1']?.state).toBe('done');
    expect(state.calls['c1']?.progress).toBeUndefined();
  });

  it('finishes a card on tool_completed with its echo and execution time', () => {
    const state = run([started('c1'), completed('c1', 'out')]);
    expect(state.calls['c1']).toMatchObject({
      state: 'done',
      echo: { kind: 'text', text: 'out' },
      execution_time: 12,
      is_error: false,
    });
  });

  it('marks a failed call as an error card', () => {
    const state = run([started('c1'), completed('c1', 'No such file', true)]);
    expect(state.calls['c1']).toMatchObject({
      state: 'error',
      is_error: true,
      echo: { kind: 'text', text: 'No such file' },
    });
  });

  it('puts tool_code_dispatch under the parent card and never makes a card of it', () => {
    const state = run([
      started('c1', 'run_code', { code: 'await tools.exec({command: "ls"})' }),
      {
        type: 'tool_code_dispatch',
        parent_call_id: 'c1',
        call_id: 'c1.1',
        name: 'exec',
        args: { command: 'ls' },
        content: 'a\nb',
        echo: text('a\nb'),
        is_error: false,
        execution_time: 4,
      },
      {
        type: 'tool_code_dispatch',
        parent_call_id: 'c1',
        call_id: 'c1.2',
        name: 'read_file',
        args: { path: 'x' },
        content: 'missing',
        echo: text('missing'),
        is_error: true,
        execution_time: 1,
      },
      completed('c1', 'done', false, 'run_code'),
    ]);
    expect(state.order).toEqual([{ kind: 'call', id: 'c1' }]);
    expect(Object.keys(state.calls)).toEqual(['c1']);
    expect(state.calls['c1']?.nested.map((entry) => [entry.call_id, entry.name, entry.is_error])).toEqual([
      ['c1.1', 'exec', false],
      ['c1.2', 'read_file', true],
    ]);
  });

  it('keeps each nested call of a long program once, and never changes a state it was given', () => {
    const dispatch = (index: number): StatusEvent => ({
      type: 'tool_code_dispatch',
      parent_call_id: 'c1',
      call_id: `c1.${index}`,
      name: 'exec',
      args: { command: `echo ${index}` },
      content: `${index}`,
      echo: text(`${index}`),
      is_error: false,
      execution_time: 1,
    });
    const first = run([
      started('c1', 'run_code', { code: '…' }),
      ...Array.from({ length: 3_000 }, (_, i) => dispatch(i)),
    ]);
    expect(first.calls['c1']?.nested.map((entry) => entry.call_id)).toEqual(
      Array.from({ length: 3_000 }, (_, i) => `c1.${i}`),
    );
    // Live events after it: the earlier state's card keeps its 3 000 nested calls.
    const later = reduceStatusEvents(first, [dispatch(3_000), dispatch(3_001)]);
    const again = reduceStatus(later, dispatch(3_002));
    expect(first.calls['c1']?.nested).toHaveLength(3_000);
    expect(later.calls['c1']?.nested).toHaveLength(3_002);
    expect(again.calls['c1']?.nested.at(-1)?.call_id).toBe('c1.3002');
    expect(later.calls['c1']?.nested).toHaveLength(3_002);
  });

  it('shows an approval on the card and records the answer', () => {
    const request = { title: 'Run a command', detail: 'rm -rf build', scope: 'exec' };
    const asked = run([started('c1'), { type: 'tool_approval_requested', call_id: 'c1', name: 'exec', request }]);
    expect(asked.calls['c1']?.approvals).toEqual([{ call_id: 'c1', name: 'exec', request }]);
    const answered = reduceStatus(asked, { type: 'tool_approval_resolved', call_id: 'c1', answer: 'deny' });
    expect(answered.calls['c1']?.approvals[0]?.answer).toBe('deny');
  });

  it('asks a nested Code Mode call’s question on the parent card', () => {
    const request = { title: 'Write a file', detail: 'notes.md', scope: 'write' };
    const state = run([
      started('c1', 'run_code', { code: '' }),
      { type: 'tool_approval_requested', call_id: 'c1.1', name: 'patch_file', request, parent_call_id: 'c1' },
      { type: 'tool_approval_resolved', call_id: 'c1.1', answer: 'session' },
    ]);
    expect(state.calls['c1']?.approvals).toEqual([{ call_id: 'c1.1', name: 'patch_file', request, answer: 'session' }]);
    expect(state.calls['c1.1']).toBeUndefined();
  });

  it('streams assistant deltas into one message and settles it on assistant_message', () => {
    const streaming = run([
      { type: 'turn_started', turn_id: 't1', model: 'demo' },
      { type: 'assistant_delta', turn_id: 't1', text: 'Hel' },
      { type: 'assistant_delta', turn_id: 't1', text: 'lo' },
    ]);
    expect(streaming.messages['assistant:t1:0']).toMatchObject({ text: 'Hello', streaming: true });
    const settled = reduceStatus(streaming, {
      type: 'assistant_message',
      turn_id: 't1',
      text: 'Hello!',
      tool_calls: [],
    });
    expect(settled.messages['assistant:t1:0']).toMatchObject({ text: 'Hello!', streaming: false });
    expect(settled.order).toEqual([{ kind: 'message', id: 'assistant:t1:0' }]);
  });

  it('starts a new assistant message after tool calls in the same turn', () => {
    const state = run([
      { type: 'assistant_delta', turn_id: 't1', text: 'Reading.' },
      { type: 'assistant_message', turn_id: 't1', text: 'Reading.', tool_calls: [] },
      started('c1', 'read_file', { path: 'a.ts' }),
      { type: 'assistant_delta', turn_id: 't1', text: 'Done.' },
    ]);
    expect(state.order.map((item) => item.id)).toEqual(['assistant:t1:0', 'c1', 'assistant:t1:1']);
  });

  it('drops an assistant message that carried only tool calls', () => {
    const state = run([
      { type: 'assistant_message', turn_id: 't1', text: '', tool_calls: [{ call_id: 'c1', name: 'exec', args: {} }] },
    ]);
    expect(state.order).toEqual([]);
  });

  it('tracks the running turn and adds usage when it completes', () => {
    const running = run([{ type: 'turn_started', turn_id: 't1', model: 'demo' }]);
    expect(running.activeTurnId).toBe('t1');
    const done = reduceStatusEvents(running, [
      { type: 'turn_completed', turn_id: 't1', usage: { input_tokens: 10, output_tokens: 4 }, stop_reason: 'end' },
      { type: 'turn_started', turn_id: 't2', model: 'demo' },
      { type: 'turn_completed', turn_id: 't2', usage: { input_tokens: 5, output_tokens: 1 }, stop_reason: 'end' },
    ]);
    expect(done.activeTurnId).toBeNull();
    expect(done.usage).toEqual({ input_tokens: 15, output_tokens: 5 });
    expect(done.turns['t1']?.state).toBe('completed');
  });

  it('marks a stopped turn with a notice and stops its running cards from spinning', () => {
    const state = run([
      { type: 'turn_started', turn_id: 't1', model: 'demo' },
      started('c1'),
      { type: 'turn_failed', turn_id: 't1', error: 'Stopped by the person.', aborted: true },
    ]);
    expect(state.turns['t1']?.state).toBe('stopped');
    expect(state.calls['c1']?.state).toBe('interrupted');
    expect(state.messages['notice:t1']).toMatchObject({ kind: 'notice', tone: 'stopped' });
  });

  it('shows a failed turn’s error text', () => {
    const state = run([{ type: 'turn_failed', turn_id: 't1', error: 'The model API refused the key (401).' }]);
    expect(state.messages['notice:t1']).toMatchObject({ tone: 'error', text: 'The model API refused the key (401).' });
  });

  it('keeps one notice row for a turn that is reported ended twice, saying the latest', () => {
    const state = run([
      { type: 'turn_started', turn_id: 't1', model: 'demo' },
      { type: 'turn_failed', turn_id: 't1', error: 'Interrupted: the session ended before this turn finished.' },
      { type: 'turn_failed', turn_id: 't1', error: 'stopped', aborted: true },
    ]);
    expect(state.order).toEqual([{ kind: 'message', id: 'notice:t1' }]);
    expect(state.messages['notice:t1']).toMatchObject({ text: 'Stopped.', tone: 'stopped' });
  });

  it('leaves the previous state untouched (pure)', () => {
    const before = run([started('c1')]);
    const snapshot = structuredClone(before);
    reduceStatus(before, completed('c1', 'out'));
    expect(before).toEqual(snapshot);
  });

  it('rebuilds the same cards from an opened session’s durable events as it showed live', () => {
    const request = { title: 'Run a command', detail: 'make', scope: 'exec' };
    const live: StatusEvent[] = [
      { type: 'user_message', turn_id: 't1', text: 'build it' },
      { type: 'turn_started', turn_id: 't1', model: 'demo' },
      { type: 'assistant_delta', turn_id: 't1', text: 'Building' },
      { type: 'assistant_delta', turn_id: 't1', text: '.' },
      {
        type: 'assistant_message',
        turn_id: 't1',
        text: 'Building.',
        tool_calls: [{ call_id: 'c1', name: 'exec', args: { command: 'make' } }],
      },
      started('c1', 'exec', { command: 'make' }),
      { type: 'tool_approval_requested', call_id: 'c1', name: 'exec', request },
      { type: 'tool_approval_resolved', call_id: 'c1', answer: 'once' },
      progress('c1', 'cc -o app\n'),
      completed('c1', 'Exit code 0 · 1.0 s\ncc -o app\n'),
      started('c2', 'run_code', { code: 'tools.read_file({path:"a"})' }),
      {
        type: 'tool_code_dispatch',
        parent_call_id: 'c2',
        call_id: 'c2.1',
        name: 'read_file',
        args: { path: 'a' },
        content: 'x',
        echo: text('x'),
        is_error: false,
        execution_time: 2,
      },
      completed('c2', 'x', false, 'run_code'),
      { type: 'assistant_message', turn_id: 't1', text: 'Built.', tool_calls: [] },
      { type: 'turn_completed', turn_id: 't1', usage: { input_tokens: 3, output_tokens: 2 }, stop_reason: 'end' },
    ];
    const durable = live.filter((event) => event.type !== 'assistant_delta' && event.type !== 'tool_progress');
    const shown = (state: TranscriptState) => ({
      order: state.order,
      messages: state.messages,
      calls: Object.fromEntries(
        Object.entries(state.calls).map(([id, call]) => [id, { ...call, progress: undefined }]),
      ),
      usage: state.usage,
    });
    expect(shown(run(durable))).toEqual(shown(run(live)));
  });
});
