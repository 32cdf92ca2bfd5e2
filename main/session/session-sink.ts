import type { StatusEvent } from '../../protocol/events.ts';
import { isLiveOnly, type StatusSink } from '../status/sink.ts';
import type { SessionLog } from './session-log.ts';

// The status sink of a session: stamps every event with its seq and time, writes the durable ones
// to the session log (fsynced), and only then forwards them to the panel. Live-only events are never
// written; they are forwarded in seq order behind any durable event still on its way to disk, so
// the panel sees events in the order they were emitted.

export class SessionSink implements StatusSink {
  private readonly log: SessionLog;
  private readonly forward: StatusSink;
  private readonly now: () => Date;
  private seq: number;
  private delivered: Promise<void> = Promise.resolve();

  constructor(log: SessionLog, forward: StatusSink, options: { now?: () => Date } = {}) {
    this.log = log;
    this.forward = forward;
    this.now = options.now ?? (() => new Date());
    this.seq = log.lastSeq;
  }

  emit(event: StatusEvent): Promise<void> {
    const stamped: StatusEvent = { ...event, seq: (this.seq += 1), at: this.now().toISOString() };
    const written = isLiveOnly(stamped) ? Promise.resolve() : this.log.appendEvent(stamped);
    const previous = this.delivered;
    const delivery = (async () => {
      await previous;
      await written;
      await this.forward.emit(stamped);
    })();
    // A failed write fails its own emit; later events still go out.
    this.delivered = delivery.catch(() => undefined);
    return delivery;
  }
}
