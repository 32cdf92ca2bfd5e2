import { expect, it } from 'vitest';
import type { CodeRewoundEvent, StatusEvent, ToolCheckpoint } from '../../protocol/events.ts';
import { reduceStatusEvents } from './transcript-reducer.ts';
import { emptyTranscript } from './transcript-types.ts';

// What the transcript makes of checkpoints: a card that ran with checkpoints off or whose
// checkpoint was pruned says its code cannot be rewound, pruning leaves a notice, and code rewinds
// (written to the session) leave cards that can be undone until their checkpoint is pruned.

const write = (callId: string, checkpoint?: ToolCheckpoint): StatusEvent[] => [
  { type: 'tool_started', call_id: callId, name: 'write_file', args: { path: 'a.txt' }, turn_id: 't1' },
  {
    type: 'tool_completed',
    call_id: callId,
    name: 'write_file',
    execution_time: 3,
    is_error: false,
    result: { kind: 'text', text: 'written' },
    ...(checkpoint ? { checkpoint } : {}),
  },
];
const rewound = (target: string, undo: string): CodeRewoundEvent => ({
  type: 'code_rewound',
  target,
  what: 'write_file a.txt',
  restored: ['a.txt'],
  removed: [],
  kept: [],
  not_restorable: [],
  undo,
});

it('marks a card that ran with checkpoints off, and leaves one with a checkpoint rewindable', () => {
  const state = reduceStatusEvents(emptyTranscript(), [
    ...write('c1', { id: '', off: true }),
    ...write('c2', { id: 'cp-2' }),
  ]);
  expect(state.calls['c1']?.rewind_unavailable).toBe(
    'Checkpoints were off when this ran, so its code cannot be rewound.',
  );
  expect(state.calls['c2']?.rewind_unavailable).toBeUndefined();
});

it('marks the cards whose checkpoints were pruned and shows the pruning notice after the card that made it', () => {
  const notice = '2 old checkpoints pruned to stay under 16 MiB: the cards before them can no longer rewind the code.';
  const state = reduceStatusEvents(emptyTranscript(), [
    ...write('c1', { id: 'cp-1' }),
    ...write('c2', { id: 'cp-2' }),
    ...write('c3', { id: 'cp-3', notice, pruned: ['cp-1', 'cp-1b', 'cp-2'], pruned_calls: ['c1', 'c2'] }),
  ]);
  expect(state.calls['c1']?.rewind_unavailable).toMatch(/pruned to stay under the checkpoint storage limit/);
  expect(state.calls['c2']?.rewind_unavailable).toMatch(/pruned/);
  expect(state.calls['c3']?.rewind_unavailable).toBeUndefined();
  expect(state.order.at(-1)).toEqual({ kind: 'message', id: 'checkpoint:c3' });
  expect(state.messages['checkpoint:c3']).toMatchObject({ kind: 'notice', tone: 'info', text: notice });
});

it('keeps a card per code rewind, marks it undone by the rewind to its undo, and undo-less once that is pruned', () => {
  const first = reduceStatusEvents(emptyTranscript(), [
    ...write('c1', { id: 'cp-1' }),
    rewound('c1', 'cp-u1'),
    rewound('c1', 'cp-u2'),
    rewound('cp-u1', 'cp-u3'),
  ]);
  expect(first.rewinds.map((entry) => [entry.event.undo, entry.undone ?? false])).toEqual([
    ['cp-u1', true],
    ['cp-u2', false],
  ]);
  const pruned = reduceStatusEvents(first, write('c4', { id: 'cp-4', pruned: ['cp-u2'] }));
  expect(pruned.rewinds[1]).toMatchObject({ undo_gone: true });
  expect(first.rewinds[1]?.undo_gone).toBeUndefined();
});
