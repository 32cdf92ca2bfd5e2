import type { StatusEvent } from '../../protocol/events.ts';

// A resumed session sends the panel only its newest page of events, and its model context is made
// of a few kinds of event; the rest of a long session (tool starts and results, most of its bytes)
// is counted as it is read and let go at once, so the open neither keeps nor copies it.

/**
 * Where the newest page starts: the longest run of events at the end whose bytes fit `budget`
 * (`bytesOf(index)`), and at least the last event, however large.
 */
export function newestPageStart(count: number, bytesOf: (index: number) => number, budget: number): number {
  let size = 0;
  let start = count;
  while (start > 0) {
    const bytes = bytesOf(start - 1);
    if (size + bytes > budget && start < count) break;
    size += bytes;
    start -= 1;
  }
  return start;
}

/** The newest events read so far whose lines fit in `budget` bytes (at least the newest one). */
export class NewestEvents {
  private readonly events: StatusEvent[] = [];
  private readonly lengths: number[] = [];
  /** Index of the oldest event still held: those before it are let go at the next compaction. */
  private head = 0;
  private bytes = 0;
  private readonly budget: number;

  constructor(budget: number) {
    this.budget = budget;
  }

  add(event: StatusEvent, length: number): void {
    this.events.push(event);
    this.lengths.push(length);
    this.bytes += length;
    while (this.events.length - this.head > 1 && this.bytes > this.budget) {
      this.bytes -= this.lengths[this.head] ?? 0;
      this.head += 1;
    }
    // Dropped in batches: a splice per event would copy the held events each time.
    if (this.head >= 256) this.compact();
  }

  /** The events held, oldest first. */
  held(): StatusEvent[] {
    this.compact();
    return this.events;
  }

  private compact(): void {
    this.events.splice(0, this.head);
    this.lengths.splice(0, this.head);
    this.head = 0;
  }
}
