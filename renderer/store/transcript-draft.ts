import type { MessageEntry, ToolCallView, TranscriptState, TurnView } from './transcript-types.ts';

// The reducer's draft: the next transcript, whose containers (calls, messages, order…) are the
// previous state's until the first event that writes to one copies it; later writes go in place.

type Container = 'order' | 'messages' | 'calls' | 'turns' | 'streaming' | 'parents' | 'rewinds';

export interface Draft {
  /** The next state; its containers are the previous state's until `w` copies them. */
  t: TranscriptState;
  own: Set<Container>;
  /** Programs whose list of nested calls this draft made: a nested call is pushed onto it in place. */
  ownNested: Set<string>;
}

/** The draft's own, writable copy of a container. */
export function w<K extends Container>(d: Draft, key: K): TranscriptState[K] {
  if (!d.own.has(key)) {
    const value = d.t[key];
    d.t[key] = (Array.isArray(value) ? value.slice() : { ...value }) as TranscriptState[K];
    d.own.add(key);
  }
  return d.t[key];
}

export function forget(d: Draft, key: 'streaming' | 'messages', id: string): void {
  if (id in d.t[key]) delete w(d, key)[id];
}

export function turnOf(t: TranscriptState, turnId: string): TurnView {
  return t.turns[turnId] ?? { turn_id: turnId, state: 'running', assistant_count: 0 };
}

/** A message whose id already has a row (a turn reported ended twice) replaces it: a row is never listed twice. */
export function addMessage(d: Draft, message: MessageEntry): void {
  const known = message.id in d.t.messages;
  w(d, 'messages')[message.id] = message;
  if (!known) w(d, 'order').push({ kind: 'message', id: message.id });
}

export function removeMessage(d: Draft, id: string): void {
  forget(d, 'messages', id);
  const index = d.t.order.findLastIndex((item) => item.kind === 'message' && item.id === id);
  if (index >= 0) w(d, 'order').splice(index, 1);
}

export function addCall(d: Draft, call: ToolCallView): void {
  w(d, 'calls')[call.call_id] = call;
  w(d, 'order').push({ kind: 'call', id: call.call_id });
}
