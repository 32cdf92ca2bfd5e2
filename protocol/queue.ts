import type { ImageRef } from './composer.ts';
import type { StatusEvent } from './events.ts';

// Messages the person sent while a turn ran, until they are delivered. A steer goes to the model at
// the running turn's next safe point (after the running calls settle, before the next model
// request); a queued message waits for the turn to end and starts the next one. Every change is a
// durable `queue` event carrying the whole list; a delivered message's user_message names its id,
// and from then on it is out of the list. Replay and the panel fold the events with `foldQueue`,
// so the list a reopened session shows is the one it had.

export type QueueMode = 'steer' | 'next';

/** How a message sent while a turn runs goes: into it (`steer`) or after it (`queue`). */
export type SendMode = 'steer' | 'queue';

export interface QueuedMessage {
  id: string;
  text: string;
  mode: QueueMode;
  /** Workspace paths mentioned with `@` (a folder ends in `/`). */
  mentions?: string[];
  /** Images attached, kept in the session's folder by hash. */
  images?: ImageRef[];
}

export interface QueueState {
  items: QueuedMessage[];
  /** Set by Stop (and by reopening a session that had a queue): nothing is sent until the person says so. */
  held: boolean;
}

/** The most messages a queue holds: past it, a send is refused with a message saying so. */
export const QUEUE_LIMIT = 100;

export const EMPTY_QUEUE: QueueState = { items: [], held: false };

/** The queue after an event: a `queue` event replaces it, a delivered message leaves it. */
export function foldQueue(state: QueueState, event: StatusEvent): QueueState {
  if (event.type === 'queue') return { items: event.items, held: event.held === true };
  if (event.type === 'user_message' && event.queued_id !== undefined) {
    const id = event.queued_id;
    if (!state.items.some((item) => item.id === id)) return state;
    return { ...state, items: state.items.filter((item) => item.id !== id) };
  }
  return state;
}

/** The queue the events leave. */
export function queueOf(events: readonly StatusEvent[]): QueueState {
  let state = EMPTY_QUEUE;
  for (const event of events) state = foldQueue(state, event);
  return state;
}
