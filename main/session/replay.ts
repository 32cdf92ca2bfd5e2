import { open, stat } from 'node:fs/promises';
import type { ToolContent } from '../../protocol/api.ts';
import type { AssistantMessageEvent, StatusEvent, Usage } from '../../protocol/events.ts';
import type { ChatMessage, ReasoningBlock } from '../model/types.ts';
import { textEcho } from '../tools/call-echo.ts';
import { interruptedContent, rebuildContext } from './context.ts';
import { newestPageStart } from './newest-events.ts';
import type { HeaderRecord, SessionRecord, ToolContentRecord } from './records.ts';
import {
  mergeParts,
  readPart,
  SessionReadError,
  type CorruptLine,
  type EventLines,
  type ReplayPart,
  type Tally,
} from './replay-part.ts';
import { readPartInThread } from './session-reader.ts';
import { upgradeEvent, type UpgradeContext } from './upgrade.ts';

export { SessionReadError, type CorruptLine, type EventLines } from './replay-part.ts';

// Reading a session file back. What a crash or a bad disk can leave behind is handled here:
// - a torn last line (no newline: the write never finished, so nobody was told) is left out and
//   reported with its byte offset, so a resume can cut it off and keep it in a `.corrupt` sidecar;
// - a line in the middle that does not parse is skipped and counted, and later lines still replay;
// - what the file leaves open is closed by repair records: a call without a result gets an
//   "interrupted, outcome unknown" result (for its card and for the model), is never run again; an
//   unanswered approval is denied; an unfinished turn is failed.

export interface TornTail {
  /** Byte offset where the torn line starts: the file's length once it is cut back. */
  offset: number;
  bytes: Buffer;
}

export interface SessionReplay {
  file: string;
  header: HeaderRecord;
  /**
   * Durable events as written, then the repair events (stamped after the last seq). Read with
   * `newestPage`: only the events of the newest page, then the repairs (`older` counts those before).
   */
  events: StatusEvent[];
  /** Events read before `events[0]` and let go (read with `newestPage`); else 0. */
  older: number;
  /**
   * Read with `newestPage`: every event the model context is made of (contextEvent) and the usage
   * steps, in order, as a resumed session needs of its history. Else null (they are in `events`).
   */
  history: StatusEvent[] | null;
  /**
   * Read with `upgradeWhenShown` from a session written before echoes had kinds: its events are
   * left as written, and whoever shows them upgrades them with this (event-pages.ts). Else null.
   */
  upgrading: UpgradeContext | null;
  contents: Map<string, ToolContentRecord>;
  /** The model context the events make (built on first read: a resume builds it when it needs it). */
  readonly context: ChatMessage[];
  /**
   * The model context some of these events make, as `context` does for them all: a resume keeps
   * only the events that feed the context (contextEvent) until it is needed.
   */
  contextOf: (events: readonly StatusEvent[]) => ChatMessage[];
  corrupt: CorruptLine[];
  torn: TornTail | null;
  /** Where the events read from the file are (events[i] for i below their count); repairs are not in it. */
  eventLines: EventLines;
  /** Records that close what the file left open; a resume appends them. */
  repairs: SessionRecord[];
  lastSeq: number;
  usage: Usage;
  /** The first line of the first user message, or '' when there is none. */
  title: string;
  updatedAt: string;
}

const TITLE_LIMIT = 80;

export interface ReadOptions {
  /** The time the repair events are stamped with. */
  now?: () => Date;
  /**
   * Leave the events of a session written before echoes had kinds as they are and upgrade only
   * those shown (a resume sends the panel one page of them; nothing else reads the echoes).
   */
  upgradeWhenShown?: boolean;
  /**
   * Keep only what a resumed session reads of its history: the newest page of events (this many
   * bytes of event lines, as SessionPages cuts it, repairs included) and the `history` events; the
   * other events are counted as they are read and let go. Their lines stay in `eventLines`.
   */
  newestPage?: number;
}

/** A file at least this large is read in two parts at once when a reader thread is ready (a resume). */
const PARTS_FROM_BYTES = 2 * 1024 * 1024;

export async function readSessionFile(file: string, options: ReadOptions = {}): Promise<SessionReplay> {
  const range = options.newestPage === undefined ? {} : { newestPage: options.newestPage };
  let read: { part: ReplayPart; torn: TornTail | null };
  try {
    const split = options.newestPage === undefined ? null : await splitPoint(file);
    const older = split === null ? null : readPartInThread(file, { ...range, end: split });
    if (split === null || older === null) read = await readPart(file, range);
    else {
      // The newer part is read here while the reader thread reads the older one; should that
      // thread fail, the older part is read here after all.
      const settled = older.then(
        (part) => ({ part }),
        (error: unknown) => ({ error }),
      );
      const newer = await readPart(file, { ...range, start: split });
      const before = await settled;
      if ('error' in before && before.error instanceof SessionReadError) throw before.error;
      const part = 'part' in before ? before.part : (await readPart(file, { ...range, end: split })).part;
      read = { part: mergeParts(part, newer.part, options.newestPage), torn: newer.torn };
    }
  } catch (error) {
    if (error instanceof SessionReadError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new SessionReadError(
      code === 'ENOENT'
        ? `No session file at ${file}.`
        : `Could not read the session file ${file}: ${(error as Error).message}`,
    );
  }
  const { header } = read.part;
  if (header === null) {
    throw new SessionReadError(`${file} is not a readable session: its first line is not a session header.`);
  }
  return finishReplay(file, header, read, options);
}

/** Where the file's second half starts (after the first newline past its middle), or null when it is short. */
async function splitPoint(file: string): Promise<number | null> {
  const { size } = await stat(file);
  if (size < PARTS_FROM_BYTES) return null;
  const handle = await open(file, 'r');
  try {
    const middle = Math.floor(size / 2);
    const buffer = Buffer.allocUnsafe(64 * 1024);
    for (let at = middle; at < size; at += buffer.length) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
      const newline = buffer.subarray(0, bytesRead).indexOf(0x0a);
      if (newline >= 0) return at + newline + 1 < size ? at + newline + 1 : null;
      if (bytesRead === 0) break;
    }
    return null;
  } finally {
    await handle.close();
  }
}

async function finishReplay(
  file: string,
  header: HeaderRecord,
  { part, torn }: { part: ReplayPart; torn: TornTail | null },
  options: ReadOptions,
): Promise<SessionReplay> {
  const { events, contents, corrupt, eventLines, tally } = part;
  // Sessions written before echoes had kinds are upgraded here, or by whoever shows their events;
  // the tools that describe their calls are loaded only for such a session, so listing today's
  // sessions stays light.
  let upgrading: UpgradeContext | null = null;
  let pageUpgrading: UpgradeContext | null = null;
  if (tally.format1) {
    const { builtinTools } = await import('../tools/index.ts');
    upgrading = pageUpgrading = { workspace: header.workspace, tools: builtinTools() };
    if (!options.upgradeWhenShown) {
      for (let index = 0; index < events.length; index += 1) events[index] = upgradeEvent(events[index]!, upgrading);
      upgrading = null;
    }
  }

  let lastSeq = tally.lastSeq;
  const at = (options.now?.() ?? new Date()).toISOString();
  const stamp = <E extends StatusEvent>(event: E): E => ({ ...event, seq: (lastSeq += 1), at });
  const repairs = repairRecords(tally, contents, stamp);
  for (const record of repairs) {
    if (record.kind === 'event') events.push(record.event);
    if (record.kind === 'tool_content') contents.set(record.call_id, record);
  }
  const page = part.newest
    ? newestPage(part.newest, repairs, eventLines.offsets.length, options.newestPage ?? 0, pageUpgrading)
    : null;

  // A reasoning record belongs to the assistant_message written right after it.
  const contextEvents = part.history ?? events;
  const reasoning = new WeakMap<StatusEvent, ReasoningBlock[]>();
  for (const [index, blocks] of part.reasoning) {
    const event = contextEvents[index];
    if (event) reasoning.set(event, blocks);
  }
  const contextOf = contextBuilder(contents, reasoning);
  let context: ChatMessage[] | null = null;
  return {
    file,
    header,
    events: page ? page.events : events,
    older: page ? page.older : 0,
    history: part.history,
    upgrading,
    contents,
    get context() {
      return (context ??= contextOf(contextEvents));
    },
    contextOf,
    corrupt,
    torn,
    eventLines,
    repairs,
    lastSeq,
    usage: tally.usage,
    title: tally.firstUser === null ? '' : titleOf(tally.firstUser),
    updatedAt: repairs.length > 0 ? at : (tally.updatedAt ?? header.created_at),
  };
}

/**
 * The newest page a resume keeps, as SessionPages.first() cuts it from every event: the repair
 * events always in it, then as many of the newest events read as fit. Upgraded if it needs it.
 */
function newestPage(
  held: { events: StatusEvent[]; lengths: number[] },
  repairs: readonly SessionRecord[],
  eventsRead: number,
  budget: number,
  upgrading: UpgradeContext | null,
): { events: StatusEvent[]; older: number } {
  const candidates = [...held.events, ...repairs.flatMap((record) => (record.kind === 'event' ? [record.event] : []))];
  const heldCount = held.events.length;
  const bytesOf = (index: number) =>
    index < heldCount ? (held.lengths[index] ?? 0) : JSON.stringify(candidates[index]).length;
  const start = Math.min(newestPageStart(candidates.length, bytesOf, budget), heldCount);
  const page = candidates.slice(start);
  return {
    events: upgrading ? page.map((event) => upgradeEvent(event, upgrading)) : page,
    older: eventsRead - heldCount + start,
  };
}

/** Made apart from the replay's other closures, so holding it does not hold every event read. */
function contextBuilder(
  contents: Map<string, ToolContentRecord>,
  reasoning: WeakMap<StatusEvent, ReasoningBlock[]>,
): (events: readonly StatusEvent[]) => ChatMessage[] {
  const lookup = (callId: string): ToolContent | undefined => contents.get(callId);
  return (events) => rebuildContext(events, lookup, (event: AssistantMessageEvent) => reasoning.get(event));
}

function repairRecords(
  { calls, done, asked, openTurns }: Tally,
  contents: Map<string, ToolContentRecord>,
  stamp: <E extends StatusEvent>(event: E) => E,
): SessionRecord[] {
  const repairs: SessionRecord[] = [];
  for (const callId of asked) {
    repairs.push({ kind: 'event', event: stamp({ type: 'tool_approval_resolved', call_id: callId, answer: 'deny' }) });
  }
  for (const [callId, name] of calls) {
    if (done.has(callId)) continue;
    let content = contents.get(callId);
    if (!content) {
      content = { kind: 'tool_content', call_id: callId, name, content: interruptedContent(name), is_error: true };
      repairs.push(content);
    }
    repairs.push({
      kind: 'event',
      event: stamp({
        type: 'tool_completed',
        call_id: callId,
        name,
        execution_time: 0,
        is_error: content.is_error,
        result: textEcho(content.content, name),
      }),
    });
  }
  for (const turnId of openTurns) {
    repairs.push({
      kind: 'event',
      event: stamp({
        type: 'turn_failed',
        turn_id: turnId,
        error: 'Interrupted: the session ended before this turn finished.',
      }),
    });
  }
  return repairs;
}

export function titleOf(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line.length > TITLE_LIMIT ? `${line.slice(0, TITLE_LIMIT - 1)}…` : line;
}
