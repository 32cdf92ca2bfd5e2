import { describe, expect, it } from 'vitest';
import type { ToolCallView, TranscriptItem } from '../store/transcript-types.ts';
import { groupReadOnly, groupSummary, sameRows } from './read-groups.ts';

// Consecutive read-only calls of one turn fold into one row; anything else breaks the run.

function call(id: string, name: string, extra: Partial<ToolCallView> = {}): ToolCallView {
  return {
    call_id: id,
    name,
    args: {},
    turn_id: 't1',
    state: 'done',
    is_error: false,
    approvals: [],
    nested: [],
    ...extra,
  };
}

const items = (...ids: string[]): TranscriptItem[] => ids.map((id) => ({ kind: 'call', id }));

describe('groupReadOnly', () => {
  it('groups two or more finished reads, listings and searches in a row', () => {
    const calls = {
      a: call('a', 'read_file'),
      b: call('b', 'search_files'),
      c: call('c', 'list_dir'),
      d: call('d', 'exec'),
    };
    expect(groupReadOnly(items('a', 'b', 'c', 'd'), calls)).toEqual([
      { kind: 'group', id: 'a', ids: ['a', 'b', 'c'] },
      { kind: 'call', id: 'd' },
    ]);
  });

  it('leaves a lone read, a running read, an asked-about read, and reads of another turn as their own cards', () => {
    const calls = {
      a: call('a', 'read_file'),
      b: call('b', 'read_file', { state: 'running' }),
      c: call('c', 'read_file'),
      d: call('d', 'read_file', { turn_id: 't2' }),
      e: call('e', 'read_file', {
        approvals: [
          {
            call_id: 'e',
            name: 'read_file',
            request: { title: 'Read', detail: '.env', scope: 'read' },
            answer: 'once',
          },
        ],
      }),
    };
    expect(groupReadOnly(items('a', 'b', 'c', 'd', 'e'), calls).map((row) => row.kind)).toEqual([
      'call',
      'call',
      'call',
      'call',
      'call',
    ]);
  });

  it('breaks a run at a message', () => {
    const calls = { a: call('a', 'read_file'), b: call('b', 'read_file'), c: call('c', 'read_file') };
    const order: TranscriptItem[] = [...items('a'), { kind: 'message', id: 'm' }, ...items('b', 'c')];
    expect(groupReadOnly(order, calls)).toEqual([
      { kind: 'call', id: 'a' },
      { kind: 'message', id: 'm' },
      { kind: 'group', id: 'b', ids: ['b', 'c'] },
    ]);
  });

  it('sameRows tells an unchanged grouping from a grown one', () => {
    const calls = { a: call('a', 'read_file'), b: call('b', 'read_file'), c: call('c', 'read_file') };
    const two = groupReadOnly(items('a', 'b'), calls);
    expect(sameRows(two, groupReadOnly(items('a', 'b'), calls))).toBe(true);
    expect(sameRows(two, groupReadOnly(items('a', 'b', 'c'), calls))).toBe(false);
  });
});

describe('groupSummary', () => {
  it('says what the calls did, and how many failed', () => {
    expect(
      groupSummary([
        call('a', 'read_file'),
        call('b', 'read_file'),
        call('c', 'read_file', { state: 'error' }),
        call('d', 'search_files'),
      ]),
    ).toBe('Read 3 files, searched 1 pattern (1 failed)');
    expect(groupSummary([call('a', 'list_dir'), call('b', 'list_dir')])).toBe('Listed 2 folders');
  });
});
