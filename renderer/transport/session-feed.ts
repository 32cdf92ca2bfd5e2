import type { OpenedSession, Result } from '../../protocol/api.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import type { Bridge } from './bridge.ts';
import type { PanelStore } from '../store/store.ts';

// Where the live status stream meets the replay of an opened session, one feed per store.
// - Live events are applied in batches, at most one per frame: a flood of deltas or progress
//   reports costs one render, not hundreds.
// - While a session is opening, live events wait. The replay replaces the transcript, then only the
//   waiting events it does not hold already (a seq after its last one; seqs increase session-wide)
//   are applied, so an event that races the open is neither applied twice nor lost.
// - One open per session at a time: the host announces a switch (`session:changed`) before it
//   answers the open that made it, and that announcement must join the open, not start another.

/** Runs `flush` soon; may return what cancels it. */
export type Schedule = (flush: () => void) => (() => void) | void;

/** About one frame later. */
export const nextFrame: Schedule = (flush) => {
  const timer = setTimeout(flush, 16);
  return () => clearTimeout(timer);
};

interface Opening {
  id: string;
  result: Promise<Result<OpenedSession>>;
}

export class SessionFeed {
  private readonly store: PanelStore;
  private schedule: Schedule = nextFrame;
  private waiting: StatusEvent[] = [];
  private scheduled = false;
  private cancelFlush: (() => void) | null = null;
  private opening: Opening | null = null;
  private stopped = false;

  constructor(store: PanelStore) {
    this.store = store;
  }

  setSchedule(schedule: Schedule): void {
    this.schedule = schedule;
  }

  /** The id of the session being opened, or null. */
  get openingId(): string | null {
    return this.opening?.id ?? null;
  }

  /** A live event: applied with the next batch, or after the replay when a session is opening. */
  push(event: StatusEvent): void {
    if (this.stopped) return;
    this.waiting.push(event);
    if (this.scheduled || this.opening) return;
    this.scheduled = true;
    this.cancelFlush = this.schedule(() => this.flush()) ?? null;
  }

  /** Applies the waiting events as one batch, unless an open will apply them after its replay. */
  flush(): void {
    this.scheduled = false;
    this.cancelFlush = null;
    if (this.stopped || this.opening || this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    this.store.getState().applyEvents(batch);
  }

  /** The host switched sessions: the events received so far belong to the one shown before. */
  discardWaiting(): void {
    this.waiting = [];
  }

  /**
   * Opens session `id` and shows its replay. An open of the same id already in flight is joined, not
   * repeated; when a later open replaces this one, only the later one's replay is shown.
   */
  open(api: Bridge, id: string): Promise<Result<OpenedSession>> {
    if (this.opening?.id === id) return this.opening.result;
    const opening: Opening = { id, result: api.openSession(id) };
    this.opening = opening;
    return opening.result.then((opened) => {
      if (this.opening !== opening) return opened;
      this.opening = null;
      const live = this.waiting;
      this.waiting = [];
      if (this.stopped) return opened;
      if (opened.ok) this.store.getState().replaySession(opened.value, live);
      else if (live.length > 0) this.store.getState().applyEvents(live);
      return opened;
    });
  }

  /** Drops the waiting events and the batch scheduled for them; nothing more is applied. */
  stop(): void {
    this.stopped = true;
    this.cancelFlush?.();
    this.cancelFlush = null;
    this.scheduled = false;
    this.waiting = [];
  }
}

const feeds = new WeakMap<PanelStore, SessionFeed>();

/** The store's feed, made on first use. */
export function feedOf(store: PanelStore): SessionFeed {
  let feed = feeds.get(store);
  if (!feed) {
    feed = new SessionFeed(store);
    feeds.set(store, feed);
  }
  return feed;
}

/** Stops the store's feed; the next `feedOf` makes a fresh one. */
export function stopFeed(store: PanelStore, feed: SessionFeed): void {
  feed.stop();
  if (feeds.get(store) === feed) feeds.delete(store);
}
