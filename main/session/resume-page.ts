import { stat } from 'node:fs/promises';
import type { StatusEvent } from '../../protocol/events.ts';
import type { SessionRecord } from './records.ts';
import { upgradeEvent, type UpgradeContext } from './upgrade.ts';
import { newestPageStart, readEventLines } from './event-pages.ts';
import type { EventLines } from './replay.ts';

// What a read for a resume keeps of a session's events (readSessionFile's `newestPage`): the
// events the model context is made of, and the newest page the panel is shown, cut as
// SessionPages.first() cuts it; the other events are counted as they are read and let go.

/**
 * What a read for a resume keeps of the events (`newestPage`): those of the context, and those
 * written in the file's last bytes (four pages' worth), where the newest page nearly always is.
 */
export interface Kept {
  history: StatusEvent[];
  /** Byte offset from which event lines are kept. */
  from: number;
  tail: StatusEvent[];
  /** Index of tail[0] among the events read. */
  tailStart: number;
}

export async function keptFor(file: string, page: number): Promise<Kept> {
  const size = await stat(file).then(
    (info) => info.size,
    () => 0,
  );
  return { history: [], from: Math.max(0, size - 4 * page), tail: [], tailStart: 0 };
}

/**
 * The newest page a resume keeps, as SessionPages.first() cuts it from every event: the repair
 * events always in it, then as many of the newest events read as fit. Upgraded if it needs it.
 */
export async function newestPage(
  file: string,
  kept: Kept,
  repairs: readonly SessionRecord[],
  lines: EventLines,
  budget: number,
  upgrading: UpgradeContext | null,
): Promise<{ events: StatusEvent[]; older: number }> {
  const read = lines.lengths.length;
  const repaired = repairs.flatMap((record) => (record.kind === 'event' ? [record.event] : []));
  const bytesOf = (index: number) =>
    index < read ? (lines.lengths[index] ?? 0) : JSON.stringify(repaired[index - read]).length;
  const start = Math.min(newestPageStart(read + repaired.length, bytesOf, budget), read);
  const tailStart = kept.tail.length > 0 ? kept.tailStart : read;
  // A page reaching past the file's last bytes (a very large result written among its events) is
  // read back for the events before them.
  const before = start < tailStart ? await readEventLines(file, lines, start, tailStart) : [];
  const page = [...before, ...kept.tail.slice(Math.max(0, start - tailStart)), ...repaired];
  return {
    events: upgrading ? page.map((event) => upgradeEvent(event, upgrading)) : page,
    older: start,
  };
}
