import { describe, expect, it } from 'vitest';
import type { EchoShape, ExecEcho } from '../../protocol/echo.ts';
import type { ToolCallView } from '../store/transcript-types.ts';
import { cardViewFor, showsDone } from './registry.ts';

const call = (
  echoKind: string | undefined,
  echo: EchoShape | undefined,
  extra: Partial<ToolCallView> = {},
): ToolCallView => ({
  call_id: 'c1',
  name: 'tool',
  args: {},
  state: 'done',
  is_error: false,
  ...(echoKind !== undefined ? { echo_kind: echoKind } : {}),
  ...(echo !== undefined ? { echo } : {}),
  approvals: [],
  nested: [],
  ...extra,
});

const text = (value: string) => ({ kind: 'text', text: value });

const exited = (output: string): ExecEcho => ({
  kind: 'exec',
  command: 'true',
  status: 'exited',
  exit_code: 0,
  signal: null,
  duration_ms: 3,
  output_bytes: output.length,
  output_lines: output === '' ? 0 : 1,
  output,
  output_cut: false,
});

describe('card registry', () => {
  it('chooses the view registered for the echo kind the call started with', () => {
    expect(cardViewFor(call('read-file', undefined)).name).toBe('read-file');
    expect(cardViewFor(call('patch', undefined)).name).toBe('patch-file');
    expect(cardViewFor(call('write', undefined)).name).toBe('write-file');
    expect(cardViewFor(call('exec', undefined)).name).toBe('exec');
    expect(cardViewFor(call('code', undefined)).name).toBe('code-mode');
  });

  it('keeps the view the call started with when its echo is text (a failure)', () => {
    expect(cardViewFor(call('exec', text('Denied.'))).name).toBe('exec');
  });

  it('goes by the echo when the start is unknown, and to the generic card for text or an unknown kind', () => {
    expect(cardViewFor(call(undefined, exited(''))).name).toBe('exec');
    expect(cardViewFor(call(undefined, text('listed'))).name).toBe('generic');
    expect(cardViewFor(call('sparkline', undefined)).name).toBe('generic');
    expect(cardViewFor(call(undefined, undefined)).name).toBe('generic');
  });
});

describe('the done card', () => {
  it('is shown for a successful text call with empty content', () => {
    expect(showsDone(call('text', text('')))).toBe(true);
  });

  it('is not shown when the content has something to say', () => {
    expect(showsDone(call('text', text('Wrote 12 bytes')))).toBe(false);
  });

  it('is never shown for a failed call, even an empty one', () => {
    expect(showsDone(call('text', text(''), { state: 'error', is_error: true }))).toBe(false);
  });

  it('is not shown while the call is running', () => {
    expect(showsDone(call('text', undefined, { state: 'running' }))).toBe(false);
  });

  it('is shown for a command that exited 0 without output', () => {
    expect(showsDone(call('exec', exited('')))).toBe(true);
  });

  it('is not shown for a command that printed something', () => {
    expect(showsDone(call('exec', exited('hello\n')))).toBe(false);
  });

  it('is not shown for a read of a file, even an empty one', () => {
    const empty = {
      kind: 'read-file',
      path: 'a.txt',
      range: { start: 1, end: 0 },
      total_lines: 0,
      content: '',
      truncated: false,
    };
    expect(showsDone(call('read-file', empty))).toBe(false);
  });

  it('is shown for a write that created an empty file, and not for one with text', () => {
    const created = (content: string) => ({
      kind: 'write',
      path: 'a.txt',
      created: true,
      bytes: content.length,
      content: { text: content, total_lines: content === '' ? 0 : 1, truncated: false },
    });
    expect(showsDone(call('write', created('')))).toBe(true);
    expect(showsDone(call('write', created('x\n')))).toBe(false);
  });

  it('is not shown for a Code Mode run that made nested calls', () => {
    const nested = [
      { call_id: 'c1.1', name: 'exec', args: {}, content: '', echo: exited(''), is_error: false, execution_time: 1 },
    ];
    expect(showsDone(call('code', { kind: 'code', output: '', empty: true }, { nested }))).toBe(false);
    expect(showsDone(call('code', { kind: 'code', output: '', empty: true }))).toBe(true);
  });
});
