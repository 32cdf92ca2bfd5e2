import type { SessionPage } from '../../protocol/api.ts';
import type { StatusEvent } from '../../protocol/events.ts';

// A long session arrives newest page first. To put an older page in front, the transcript is
// reduced again from all the events it has seen, in order, so a call, a turn or a streamed message
// that spans the page boundary comes out exactly as one replay would draw it. Live reports are kept
// only as the newest per call: a report replaces the one before it anyway.

/** Where the next older page starts, for the session whose newest pages are shown. */
export interface OlderEvents {
  id: string;
  /** Events before the ones shown; asked for with `session:page`. */
  before: number;
  loading: boolean;
}

export class EventHistory {
  private events: StatusEvent[] = [];
  private readonly progress = new Map<string, StatusEvent>();

  /** Starts over with an opened session's page; nothing is kept when there is nothing older to load. */
  reset(events: readonly StatusEvent[], keep: boolean): void {
    this.events = keep ? events.slice() : [];
    this.progress.clear();
  }

  /** Live events that came after the page, kept while older pages can still arrive. */
  record(events: readonly StatusEvent[]): void {
    for (const event of events) {
      if (event.type === 'tool_progress') this.progress.set(event.call_id, event);
      else this.events.push(event);
    }
  }

  /** Puts an older page in front; gives every event to reduce, oldest first. */
  prepend(page: SessionPage): StatusEvent[] {
    this.events = page.events.concat(this.events);
    return [...this.events, ...this.progress.values()];
  }

  clear(): void {
    this.reset([], false);
  }
}
