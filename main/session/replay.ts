import type { ToolContent } from '../../protocol/api.ts';
import type { AssistantMessageEvent, StatusEvent, Usage } from '../../protocol/events.ts';
import type { ChatMessage, ReasoningBlock } from '../model/types.ts';
import { historyEvent, rebuildContext } from './context.ts';
import { parseRecord, type HeaderRecord, type SessionRecord, type ToolContentRecord } from './records.ts';
import { upgradeEvent, type UpgradeContext } from './upgrade.ts';
import { scanLines, type FileLine } from './line-reader.ts';
import { keptFor, newestPage, type Kept } from './resume-page.ts';
import { countEvent, newTally, repairRecords, type Tally } from './replay-repairs.ts';

// Reading a session file back. What a crash or a bad disk can leave behind is handled here:
// - a torn last line (no newline: the write never finished, so nobody was told) is left out and
//   reported with its byte offset, so a resume can cut it off and keep it in a `.corrupt` sidecar;
// - a line in the middle that does not parse is skipped and counted, and later lines still replay;
// - what the file leaves open is closed by repair records (replay-repairs.ts).
// A read for a resume keeps only the events it needs (resume-page.ts).

export interface CorruptLine {
  /** 1-based line number in the file. */
  line: number;
  reason: string;
}

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

/** Byte offset and length of each event line, in event order. */
export interface EventLines {
  offsets: number[];
  lengths: number[];
}

export class SessionReadError extends Error {
  override name = 'SessionReadError';
}

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

export async function readSessionFile(file: string, options: ReadOptions = {}): Promise<SessionReplay> {
  const events: StatusEvent[] = [];
  const kept = options.newestPage === undefined ? null : await keptFor(file, options.newestPage);
  const contents = new Map<string, ToolContentRecord>();
  const corrupt: CorruptLine[] = [];
  const eventLines: EventLines = { offsets: [], lengths: [] };
  const tally = newTally();
  // A reasoning record belongs to the assistant_message written right after it.
  const reasoning = new WeakMap<StatusEvent, ReasoningBlock[]>();
  let pendingReasoning: ReasoningBlock[] | null = null;
  const found: { header: HeaderRecord | null } = { header: null };
  let lineNumber = 0;
  // One pass over the file as a stream: each line is parsed as it arrives, and only the event
  // lines' byte ranges are kept, so the panel can read an older page of events again later.
  const onLine = ({ text, offset, length }: FileLine) => {
    lineNumber += 1;
    if (lineNumber === 1) {
      const first = parseRecord(text);
      if (!first.ok || first.record.kind !== 'header') throw notASession(file);
      found.header = first.record;
      return;
    }
    if (text.trim().length === 0) return;
    const parsed = parseRecord(text);
    if (!parsed.ok) {
      corrupt.push({ line: lineNumber, reason: parsed.reason });
    } else if (parsed.record.kind === 'event') {
      const { event } = parsed.record;
      if (event.type === 'assistant_message' && pendingReasoning) reasoning.set(event, pendingReasoning);
      if (event.type === 'assistant_message') pendingReasoning = null;
      if (kept === null) events.push(event);
      else {
        if (offset >= kept.from) {
          if (kept.tail.length === 0) kept.tailStart = eventLines.offsets.length;
          kept.tail.push(event);
        }
        if (historyEvent(event)) kept.history.push(event);
      }
      countEvent(tally, event);
      eventLines.offsets.push(offset);
      eventLines.lengths.push(length);
    } else if (parsed.record.kind === 'reasoning') {
      pendingReasoning = parsed.record.blocks;
    } else if (parsed.record.kind === 'tool_content') {
      contents.set(parsed.record.call_id, parsed.record);
    } else {
      corrupt.push({ line: lineNumber, reason: 'a second session header' });
    }
  };
  let torn: TornTail | null;
  try {
    ({ torn } = await scanLines(file, onLine));
  } catch (error) {
    if (error instanceof SessionReadError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new SessionReadError(
      code === 'ENOENT'
        ? `No session file at ${file}.`
        : `Could not read the session file ${file}: ${(error as Error).message}`,
    );
  }
  if (found.header === null) throw notASession(file);
  const read = { events, kept, contents, corrupt, torn, eventLines, reasoning, tally };
  return finishReplay(file, found.header, read, options);
}

function notASession(file: string): SessionReadError {
  return new SessionReadError(`${file} is not a readable session: its first line is not a session header.`);
}

interface ReadLines {
  tally: Tally;
  /** Every event read, or none when only some are `kept`. */
  events: StatusEvent[];
  kept: Kept | null;
  contents: Map<string, ToolContentRecord>;
  corrupt: CorruptLine[];
  torn: TornTail | null;
  eventLines: EventLines;
  reasoning: WeakMap<StatusEvent, ReasoningBlock[]>;
}

async function finishReplay(
  file: string,
  header: HeaderRecord,
  read: ReadLines,
  options: ReadOptions,
): Promise<SessionReplay> {
  const { events, kept, contents, corrupt, torn, eventLines, reasoning, tally } = read;
  // Sessions written before echoes had kinds are upgraded here, or by whoever shows their events;
  // the tools that describe their calls are loaded only for such a session, so listing today's
  // sessions stays light.
  let upgrading: UpgradeContext | null = null;
  let pageUpgrading: UpgradeContext | null = null;
  if (tally.format1) {
    const { builtinTools } = await import('../tools/index.ts');
    upgrading = pageUpgrading = { workspace: header.workspace, tools: builtinTools() };
    // Only tool events change; an assistant_message keeps its identity (its reasoning is keyed by it).
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
  const page = kept ? await newestPage(file, kept, repairs, eventLines, options.newestPage ?? 0, pageUpgrading) : null;

  const contextOf = contextBuilder(contents, reasoning);
  const contextEvents = kept ? kept.history : events;
  let context: ChatMessage[] | null = null;
  return {
    file,
    header,
    events: page ? page.events : events,
    older: page ? page.older : 0,
    history: kept ? kept.history : null,
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

/** Made apart from the replay's other closures, so holding it does not hold every event read. */
function contextBuilder(
  contents: Map<string, ToolContentRecord>,
  reasoning: WeakMap<StatusEvent, ReasoningBlock[]>,
): (events: readonly StatusEvent[]) => ChatMessage[] {
  const lookup = (callId: string): ToolContent | undefined => contents.get(callId);
  return (events) => rebuildContext(events, lookup, (event: AssistantMessageEvent) => reasoning.get(event));
}

export function titleOf(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line.length > TITLE_LIMIT ? `${line.slice(0, TITLE_LIMIT - 1)}…` : line;
}
