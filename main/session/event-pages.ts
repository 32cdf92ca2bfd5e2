import type { OpenedSession, SessionPage } from '../../protocol/api.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { scanLines } from './line-reader.ts';
import { parseRecord } from './records.ts';
import type { EventLines } from './replay.ts';
import { isFormat1Event, upgradeEvent, type UpgradeContext } from './upgrade.ts';

// An opened session goes to the panel a page at a time: the newest events first, in one message
// well under a megabyte, and older pages when the person scrolls up to them. Only the byte range
// of each event line is kept; an older page is read back from the file when asked for. The file
// is append-only, so the ranges stay right while the session goes on.

/** Bytes of events (as written in the file) one page holds; a single larger event is a page alone. */
export const PAGE_BYTES = 256 * 1024;

export class SessionPages {
  readonly id: string;
  private readonly file: string;
  private readonly lines: EventLines;
  private readonly workspace: string;
  private readonly budget: number;
  /** Set when the events handed to first() are still as a session before echo kinds wrote them. */
  private readonly upgrading: UpgradeContext | null;

  constructor(
    replay: {
      file: string;
      eventLines: EventLines;
      header: { id: string; workspace: string };
      upgrading?: UpgradeContext | null;
    },
    budget = PAGE_BYTES,
  ) {
    this.id = replay.header.id;
    this.file = replay.file;
    this.lines = replay.eventLines;
    this.workspace = replay.header.workspace;
    this.budget = budget;
    this.upgrading = replay.upgrading ?? null;
  }

  /**
   * The opened session with only its newest page of events; `older` counts the events before it.
   * A session already cut to its newest page (it has `older`) is given back as it is.
   */
  first(opened: OpenedSession): OpenedSession {
    if (opened.older !== undefined) return opened;
    const { events } = opened;
    const inFile = this.lines.offsets.length;
    const { lengths } = this.lines;
    const bytesOf = (index: number) => (index < inFile ? (lengths[index] ?? 0) : JSON.stringify(events[index]).length);
    // The repair events (after the file's events) are always in the newest page.
    const start = Math.min(newestPageStart(events.length, bytesOf, this.budget), inFile);
    const upgrading = this.upgrading;
    const page = events.slice(start);
    const shown = upgrading ? page.map((event) => upgradeEvent(event, upgrading)) : page;
    return { ...opened, events: shown, ...(start > 0 ? { older: start } : {}) };
  }

  /** The page of events just before event `before`, read back from the file. */
  async before(before: number): Promise<SessionPage> {
    const { offsets, lengths } = this.lines;
    const end = Math.min(before, offsets.length);
    const start = newestPageStart(end, (index) => lengths[index] ?? 0, this.budget);
    if (start === end) return { id: this.id, events: [], before: end };
    const events = await readEventLines(this.file, this.lines, start, end);
    return { id: this.id, events: await this.upgraded(events), before: start };
  }

  /** Sessions written before echoes had kinds are upgraded as their pages are read, like replay does. */
  private async upgraded(events: StatusEvent[]): Promise<StatusEvent[]> {
    if (!events.some(isFormat1Event)) return events;
    const { builtinTools } = await import('../tools/index.ts');
    const context = { workspace: this.workspace, tools: builtinTools() };
    return events.map((event) => upgradeEvent(event, context));
  }
}

/** Events `start` to `end` (not included) of a session file, read back from their lines. */
export async function readEventLines(
  file: string,
  { offsets, lengths }: EventLines,
  start: number,
  end: number,
): Promise<StatusEvent[]> {
  const events: StatusEvent[] = [];
  let next = start;
  const from = offsets[start] ?? 0;
  const to = (offsets[end - 1] ?? 0) + (lengths[end - 1] ?? 0) + 1;
  await scanLines(
    file,
    ({ text, offset }) => {
      if (offset !== offsets[next]) return;
      next += 1;
      const parsed = parseRecord(text);
      // These lines were events when the session was read; the file only grows at its end.
      if (!parsed.ok || parsed.record.kind !== 'event') {
        throw new Error(`The session file ${file} changed under the panel: open the session again.`);
      }
      events.push(parsed.record.event);
    },
    { start: from, end: to },
  );
  if (next !== end) throw new Error(`The session file ${file} is shorter than when it was opened: open it again.`);
  return events;
}

/**
 * Where the page ending before event `count` starts: the longest run of events before it whose
 * bytes fit `budget` (`bytesOf(index)`), and at least one event, however large. The newest page is
 * cut this way whether every event was kept (SessionPages) or only the last ones (a resume).
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
