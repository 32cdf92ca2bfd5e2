import type { LiveOnlyEventType, StatusEvent } from '../../protocol/events.ts';

// The status sink: where every status event goes. Durable events may be awaited (the session
// writes and fsyncs them before the panel is told); live-only events are fire and forget.

/** How a durable event may be written. */
export interface EmitOptions {
  /**
   * It may wait a moment for the events after it to share its write and fsync: a read-only call's
   * start, whose caller waits for none of its records (its completion usually follows at once).
   */
  gather?: boolean;
}

export interface StatusSink {
  emit(event: StatusEvent, options?: EmitOptions): void | Promise<void>;
}

const LIVE_ONLY: ReadonlySet<LiveOnlyEventType> = new Set([
  'assistant_delta',
  'reasoning_delta',
  'tool_progress',
  'context_estimate',
]);

export function isLiveOnly(event: StatusEvent): boolean {
  return LIVE_ONLY.has(event.type as LiveOnlyEventType);
}

/** Collects events in order; the CLI and tests read them back. */
export class StatusRecorder implements StatusSink {
  readonly events: StatusEvent[] = [];

  emit(event: StatusEvent): void {
    this.events.push(event);
  }

  ofType<T extends StatusEvent['type']>(type: T): Extract<StatusEvent, { type: T }>[] {
    return this.events.filter((event): event is Extract<StatusEvent, { type: T }> => event.type === type);
  }
}
