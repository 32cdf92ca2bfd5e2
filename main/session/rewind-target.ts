import type { StatusEvent } from '../../protocol/events.ts';
import type { Checkpoint, CheckpointStore } from '../tools/checkpoints/checkpoint-store.ts';

// Where a rewind goes, from what the person pointed at: a card (its call id), a user message (its
// turn id) or a checkpoint id. Code rewinds to the checkpoint taken before the call; a conversation
// rewind forks before the turn (fork.ts), and rewinding both takes the code back to that same
// point: the checkpoint of the first call at or after the turn's start.

export type RewindMode = 'code' | 'conversation' | 'both';

/** The turn that holds a call (asked for by the model, or made for a mention in the message). */
export function turnOfCall(events: readonly StatusEvent[], callId: string): string | null {
  for (const event of events) {
    if (event.type === 'assistant_message' && event.tool_calls.some((call) => call.call_id === callId))
      return event.turn_id;
    if (event.type === 'user_message' && (event.mention_calls ?? []).includes(callId)) return event.turn_id;
  }
  return null;
}

/** Whether the session has a turn with this id that began with a message of the person. */
export function hasTurn(events: readonly StatusEvent[], turnId: string): boolean {
  return events.some((event) => event.type === 'user_message' && event.turn_id === turnId);
}

/** The call ids of the turn `turnId` and every later turn, in the order they were made. */
export function callsFromTurn(events: readonly StatusEvent[], turnId: string): string[] {
  const start = events.findIndex((event) => 'turn_id' in event && event.turn_id === turnId);
  if (start === -1) return [];
  const calls: string[] = [];
  for (const event of events.slice(start)) {
    if (event.type === 'user_message') calls.push(...(event.mention_calls ?? []));
    if (event.type === 'assistant_message') calls.push(...event.tool_calls.map((call) => call.call_id));
  }
  return calls;
}

/**
 * The checkpoint that holds the workspace as it was when turn `turnId` began, or null when no
 * call since took one (nothing was changed by the agent since: the code has nothing to rewind).
 */
export function checkpointAtTurn(
  store: CheckpointStore,
  events: readonly StatusEvent[],
  turnId: string,
): Checkpoint | null {
  for (const callId of callsFromTurn(events, turnId)) {
    const found = store.beforeCall(callId);
    if (found) return found;
  }
  return null;
}

/** The checkpoint a code rewind to `target` (a checkpoint, call or turn id) goes to, or null. */
export function codeCheckpoint(
  store: CheckpointStore,
  events: readonly StatusEvent[],
  target: string,
  mode: RewindMode,
): Checkpoint | null {
  if (mode === 'both') {
    const turn = turnOfCall(events, target) ?? (hasTurn(events, target) ? target : null);
    return turn === null ? null : checkpointAtTurn(store, events, turn);
  }
  const direct = store.get(target) ?? store.beforeCall(target);
  if (direct) return direct;
  if (hasTurn(events, target)) return checkpointAtTurn(store, events, target);
  // A call that took no checkpoint (a read) changed nothing: the workspace before it is the one
  // the next checkpoint holds. One whose checkpoint was pruned has none to go to.
  const turn = turnOfCall(events, target);
  if (turn === null || tookCheckpoint(events, target)) return null;
  const calls = callsFromTurn(events, turn);
  for (const callId of calls.slice(calls.indexOf(target) + 1)) {
    const found = store.beforeCall(callId);
    if (found) return found;
  }
  return null;
}

/** Whether the log says the call took a checkpoint (tool_completed names it). */
function tookCheckpoint(events: readonly StatusEvent[], callId: string): boolean {
  return events.some((event) => event.type === 'tool_completed' && event.call_id === callId && event.checkpoint);
}
