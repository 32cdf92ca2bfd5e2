import type { StatusEvent } from '../../protocol/events.ts';
import { isLiveOnly, type EmitOptions, type StatusSink } from '../status/sink.ts';
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
  private stampedAt = Number.NaN;
  private stampText = '';

  constructor(log: SessionLog, forward: StatusSink, options: { now?: () => Date } = {}) {
    this.log = log;
    this.forward = forward;
    this.now = options.now ?? (() => new Date());
    this.seq = log.lastSeq;
  }

  emit(event: StatusEvent, options?: EmitOptions): Promise<void> {
    const stamped: StatusEvent = { ...event, seq: (this.seq += 1), at: this.stamp() };
    const written = isLiveOnly(stamped) ? undefined : this.log.appendEvent(stamped, options);
    // Forwarded once the events before it went out, then once it is written; a failed write
    // fails its own emit (it is not forwarded) and later events still go out.
    const previous = this.delivered;
    const delivery = (written ? previous.then(() => written) : previous).then(() => this.forward.emit(stamped));
    this.delivered = delivery.catch(() => undefined);
    return delivery;
  }

  /** The time of an event; the text is made once a millisecond (a program's nested calls share it). */
  private stamp(): string {
    const ms = this.now().getTime();
    if (ms !== this.stampedAt) {
      this.stampedAt = ms;
      this.stampText = new Date(ms).toISOString();
    }
    return this.stampText;
  }
}
