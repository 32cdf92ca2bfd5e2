import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { CheckpointStore } from '../tools/checkpoints/checkpoint-store.ts';
import { codeCheckpoint, turnOfCall } from './rewind-target.ts';

// Where a rewind goes from what the person pointed at, over a real checkpoint store: a write's own
// checkpoint, the next one for a read, the turn's first for a message or for "both", none for a
// call whose checkpoint the log names but the store no longer has.

let root: string;
let store: CheckpointStore;

const call = (turnId: string, callId: string, checkpoint?: string): StatusEvent[] => [
  {
    type: 'assistant_message',
    turn_id: turnId,
    text: '',
    tool_calls: [{ call_id: callId, name: checkpoint ? 'write_file' : 'read_file', args: {} }],
  },
  {
    type: 'tool_completed',
    call_id: callId,
    name: checkpoint ? 'write_file' : 'read_file',
    execution_time: 1,
    is_error: false,
    result: { kind: 'text', text: '' },
    ...(checkpoint ? { checkpoint: { id: checkpoint } } : {}),
  },
];

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-rewind-target-'));
  await mkdir(path.join(root, 'ws'));
  await writeFile(path.join(root, 'ws', 'a.txt'), 'a\n');
  store = await CheckpointStore.open(path.join(root, 'cp'), path.join(root, 'ws'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it('finds the checkpoint of a write, the next one for a read, and the turn’s first for a message', async () => {
  const w1 = (await store.record('before write_file', 'w1')).checkpoint;
  const w2 = (await store.record('before write_file', 'w2')).checkpoint;
  const events: StatusEvent[] = [
    { type: 'user_message', turn_id: 't1', text: 'one' },
    ...call('t1', 'r0'),
    ...call('t1', 'w1', w1.id),
    { type: 'user_message', turn_id: 't2', text: 'two' },
    ...call('t2', 'r1'),
    ...call('t2', 'w2', w2.id),
    ...call('t2', 'r2'),
  ];
  expect(turnOfCall(events, 'w2')).toBe('t2');
  expect(codeCheckpoint(store, events, 'w1', 'code')?.id).toBe(w1.id);
  expect(codeCheckpoint(store, events, 'r0', 'code')?.id).toBe(w1.id);
  expect(codeCheckpoint(store, events, 'r1', 'code')?.id).toBe(w2.id);
  // Nothing was changed by the agent after the last read: no checkpoint to go to.
  expect(codeCheckpoint(store, events, 'r2', 'code')).toBeNull();
  expect(codeCheckpoint(store, events, 't2', 'code')?.id).toBe(w2.id);
  expect(codeCheckpoint(store, events, 'w2', 'both')?.id).toBe(w2.id);
  expect(codeCheckpoint(store, events, 'r2', 'both')?.id).toBe(w2.id);
  expect(codeCheckpoint(store, events, w1.id, 'code')?.id).toBe(w1.id);
});

it('goes nowhere for a call whose checkpoint the log names but the store pruned', async () => {
  const later = (await store.record('before write_file', 'w2')).checkpoint;
  const events: StatusEvent[] = [
    { type: 'user_message', turn_id: 't1', text: 'one' },
    ...call('t1', 'w1', 'cp-pruned'),
    ...call('t1', 'w2', later.id),
  ];
  expect(codeCheckpoint(store, events, 'w1', 'code')).toBeNull();
  expect(codeCheckpoint(store, events, 'nope', 'code')).toBeNull();
});
