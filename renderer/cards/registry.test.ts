import { describe, expect, it } from 'vitest';
import type { ToolCallView } from '../store/transcript-types.ts';
import { cardViewFor, showsDone } from './registry.ts';

const call = (name: string, result: unknown, extra: Partial<ToolCallView> = {}): ToolCallView => ({
  call_id: 'c1',
  name,
  args: {},
  state: 'done',
  is_error: false,
  result,
  approvals: [],
  nested: [],
  ...extra,
});

describe('card registry', () => {
  it('chooses the view registered for the tool name', () => {
    expect(cardViewFor('read_file').kind).toBe('read-file');
    expect(cardViewFor('patch_file').kind).toBe('patch-file');
    expect(cardViewFor('exec').kind).toBe('exec');
    expect(cardViewFor('ssh_exec').kind).toBe('ssh-exec');
    expect(cardViewFor('run_code').kind).toBe('code-mode');
  });

  it('falls back to the generic card for any other tool', () => {
    expect(cardViewFor('write_file').kind).toBe('generic');
    expect(cardViewFor('').kind).toBe('generic');
  });
});

describe('the done card', () => {
  it('is shown for a successful generic call with empty content', () => {
    expect(showsDone(call('write_file', ''))).toBe(true);
  });

  it('is not shown when the content has something to say', () => {
    expect(showsDone(call('write_file', 'Wrote 12 bytes'))).toBe(false);
  });

  it('is never shown for a failed call, even an empty one', () => {
    expect(showsDone(call('write_file', '', { state: 'error', is_error: true }))).toBe(false);
  });

  it('is not shown while the call is running', () => {
    expect(showsDone(call('write_file', undefined, { state: 'running' }))).toBe(false);
  });

  it('is shown for a command that exited 0 without output', () => {
    expect(showsDone(call('exec', 'Exit code 0 · 3 ms\n(no output)'))).toBe(true);
  });

  it('is not shown for a command that printed something', () => {
    expect(showsDone(call('exec', 'Exit code 0 · 3 ms\nhello\n'))).toBe(false);
  });

  it('is not shown for a read of a file, even an empty one', () => {
    const empty = {
      path: 'a.txt',
      range: { start: 1, end: 0 },
      total_lines: 0,
      content: '',
      sha256: '',
      truncated: false,
    };
    expect(showsDone(call('read_file', empty))).toBe(false);
  });

  it('is not shown for a Code Mode run that made nested calls', () => {
    const nested = [{ call_id: 'c1.1', name: 'exec', args: {}, content: '', is_error: false, execution_time: 1 }];
    expect(showsDone(call('run_code', '', { nested }))).toBe(false);
  });
});
