import { stat } from 'node:fs/promises';
import type { ToolContent } from '../../protocol/api.ts';
import type { AssistantMessageEvent, StatusEvent, Usage } from '../../protocol/events.ts';
import type { ProcessInfo } from '../../protocol/processes.ts';
import type { ChatMessage, ReasoningBlock } from '../model/types.ts';
import { textEcho } from '../tools/call-echo.ts';
import { historyEvent, interruptedContent, rebuildContext } from './context.ts';
import { parseRecord, type HeaderRecord, type SessionRecord, type ToolContentRecord } from './records.ts';
import { isFormat1Event, upgradeEvent, type UpgradeContext } from './upgrade.ts';
import { scanLines, type FileLine } from './line-reader.ts';
import { newestPageStart, readEventLines } from './event-pages.ts';

// Reading a session file back. What a crash or a bad disk can leave behind is handled here:
// - a torn last line (no newline: the write never finished, so nobody was told) is left out and
//   reported with its byte offset, so a resume can cut it off and keep it in a `.corrupt` sidecar;
// - a line in the middle that does not parse is skipped and counted, and later lines still replay;
// - what the file leaves open is closed by repair records: a call without a result gets an
//   "interrupted, outcome unknown" result (for its card and for the model), is never run again; an
//   unanswered approval is denied; an unfinished turn is failed.

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
      count(tally, event);
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

/**
 * What a read for a resume keeps of the events (`newestPage`): those of the context, and those
 * written in the file's last bytes (four pages' worth), where the newest page nearly always is.
 */
interface Kept {
  history: StatusEvent[];
  /** Byte offset from which event lines are kept. */
  from: number;
  tail: StatusEvent[];
  /** Index of tail[0] among the events read. */
  tailStart: number;
}

async function keptFor(file: string, page: number): Promise<Kept> {
  const size = await stat(file).then(
    (info) => info.size,
    () => 0,
  );
  return { history: [], from: Math.max(0, size - 4 * page), tail: [], tailStart: 0 };
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

/**
 * The newest page a resume keeps, as SessionPages.first() cuts it from every event: the repair
 * events always in it, then as many of the newest events read as fit. Upgraded if it needs it.
 */
async function newestPage(
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

/** Made apart from the replay's other closures, so holding it does not hold every event read. */
function contextBuilder(
  contents: Map<string, ToolContentRecord>,
  reasoning: WeakMap<StatusEvent, ReasoningBlock[]>,
): (events: readonly StatusEvent[]) => ChatMessage[] {
  const lookup = (callId: string): ToolContent | undefined => contents.get(callId);
  return (events) => rebuildContext(events, lookup, (event: AssistantMessageEvent) => reasoning.get(event));
}

/** What replay needs to know of the events read, gathered as they are read. */
interface Tally {
  /** Calls asked for or started, by id, with their tool's name; those completed; approvals unanswered. */
  calls: Map<string, string>;
  done: Set<string>;
  asked: Set<string>;
  openTurns: Set<string>;
  lastSeq: number;
  usage: Usage;
  firstUser: string | null;
  updatedAt: string | null;
  /** Some event was written before echoes had kinds. */
  format1: boolean;
  /** Each background process's last record, by id. */
  processes: Map<string, ProcessInfo>;
}

function newTally(): Tally {
  return {
    calls: new Map(),
    done: new Set(),
    asked: new Set(),
    openTurns: new Set(),
    lastSeq: 0,
    usage: { input_tokens: 0, output_tokens: 0 },
    firstUser: null,
    updatedAt: null,
    format1: false,
    processes: new Map(),
  };
}

/** Counts one event as it is read (while it is fresh in the cache, not in a second pass over them all). */
function count(tally: Tally, event: StatusEvent): void {
  if (event.seq !== undefined && event.seq > tally.lastSeq) tally.lastSeq = event.seq;
  if (event.at) tally.updatedAt = event.at;
  if (!tally.format1 && isFormat1Event(event)) tally.format1 = true;
  const { calls, done, asked, openTurns, usage } = tally;
  if (event.type === 'assistant_message') for (const call of event.tool_calls) calls.set(call.call_id, call.name);
  else if (event.type === 'tool_started') calls.set(event.call_id, event.name);
  else if (event.type === 'tool_completed') done.add(event.call_id);
  else if (event.type === 'tool_approval_requested') asked.add(event.call_id);
  else if (event.type === 'tool_approval_resolved') asked.delete(event.call_id);
  else if (event.type === 'turn_started') openTurns.add(event.turn_id);
  else if (event.type === 'user_message' && tally.firstUser === null) tally.firstUser = event.text;
  else if (event.type === 'process_state') tally.processes.set(event.process.id, event.process);
  else if (event.type === 'turn_completed' || event.type === 'turn_failed') {
    openTurns.delete(event.turn_id);
    if (event.usage) {
      usage.input_tokens += event.usage.input_tokens;
      usage.output_tokens += event.usage.output_tokens;
    }
  }
}

function repairRecords(
  { calls, done, asked, openTurns, processes }: Tally,
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
  // A process the log last saw running was running when the app died: the next start's sweep ends
  // whatever the app left running (left-processes.ts), before a resume appends this.
  for (const process of processes.values()) {
    if (process.state !== 'running') continue;
    repairs.push({
      kind: 'event',
      event: stamp({
        type: 'process_state',
        process: { ...process, state: 'stopped', end_reason: 'app_closed', ports: [] },
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
