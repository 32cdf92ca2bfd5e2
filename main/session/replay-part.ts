import type { StatusEvent, Usage } from '../../protocol/events.ts';
import type { ReasoningBlock } from '../model/types.ts';
import { contextEvent } from './context.ts';
import { isFormat1Event } from './format1.ts';
import { scanLines, type FileLine } from './line-reader.ts';
import { NewestEvents } from './newest-events.ts';
import { parseRecord, type HeaderRecord, type ToolContentRecord } from './records.ts';

// One part of a session file read into what replay needs of it. A long session is read in two
// parts at once (the older in a reader thread, session-reader.ts), and the parts are put together
// in file order (mergeParts) into exactly what one pass over the whole file gives.

export interface CorruptLine {
  /** 1-based line number in the file. */
  line: number;
  reason: string;
}

/** Byte offset and length of each event line, in event order. */
export interface EventLines {
  offsets: number[];
  lengths: number[];
}

export class SessionReadError extends Error {
  override name = 'SessionReadError';
}

/** What replay needs to know of the events read, gathered as they are read. */
export interface Tally {
  /** Calls asked for or started, by id, with their tool's name; those completed; approvals unanswered. */
  calls: Map<string, string>;
  done: Set<string>;
  asked: Set<string>;
  openTurns: Set<string>;
  /** Every approval answered, and turn ended, in this part: what an earlier part left open may be among them. */
  answered: Set<string>;
  ended: Set<string>;
  lastSeq: number;
  usage: Usage;
  firstUser: string | null;
  updatedAt: string | null;
  /** Some event was written before echoes had kinds. */
  format1: boolean;
}

export interface ReplayPart {
  /** The session's header: read by the part that starts the file. */
  header: HeaderRecord | null;
  /** Lines read, blank ones included (the next part's line numbers start after them). */
  lines: number;
  /** Every event read; none when `newest` and `history` keep only some (a read for a resume). */
  events: StatusEvent[];
  /** The newest events read, at least a page of them, with the bytes of their lines. */
  newest: { events: StatusEvent[]; lengths: number[] } | null;
  /** The events the model context is made of, and the usage steps. */
  history: StatusEvent[] | null;
  contents: Map<string, ToolContentRecord>;
  corrupt: CorruptLine[];
  eventLines: EventLines;
  /**
   * Reasoning blocks, by the index of the assistant_message they belong to in `history` (or in
   * `events` when every event is kept): a reasoning record belongs to the next assistant_message.
   */
  reasoning: [number, ReasoningBlock[]][];
  /** A reasoning record no assistant_message of this part took: it is the next part's. */
  trailingReasoning: ReasoningBlock[] | null;
  /** Index (as in `reasoning`) of this part's first assistant_message if no reasoning came before it; else -1. */
  openingAssistant: number;
  tally: Tally;
}

export interface PartRange {
  start?: number;
  end?: number;
  /** Bytes of the newest page kept (a read for a resume); every event is kept without it. */
  newestPage?: number;
}

/** Reads the lines of `file` from `start` to `end` into a part; a part from byte 0 starts with the header. */
export async function readPart(
  file: string,
  range: PartRange,
): Promise<{ part: ReplayPart; torn: { offset: number; bytes: Buffer } | null }> {
  const reader = new PartReader(file, range.start ?? 0, range.newestPage);
  const { torn } = await scanLines(file, reader.line, range);
  return { part: reader.part(), torn };
}

class PartReader {
  private readonly file: string;
  private readonly startsFile: boolean;
  private lineNumber = 0;
  private readonly kept: { newest: NewestEvents; history: StatusEvent[] } | null;
  private pendingReasoning: ReasoningBlock[] | null = null;
  private sawReasoningOrAssistant = false;
  private readonly data: ReplayPart;

  constructor(file: string, start: number, newestPage: number | undefined) {
    this.file = file;
    this.startsFile = start === 0;
    this.kept = newestPage === undefined ? null : { newest: new NewestEvents(newestPage), history: [] };
    this.data = {
      header: null,
      lines: 0,
      events: [],
      newest: null,
      history: this.kept?.history ?? null,
      contents: new Map(),
      corrupt: [],
      eventLines: { offsets: [], lengths: [] },
      reasoning: [],
      trailingReasoning: null,
      openingAssistant: -1,
      tally: newTally(),
    };
  }

  readonly line = ({ text, offset, length }: FileLine): void => {
    const data = this.data;
    const lineNumber = (this.lineNumber += 1);
    if (lineNumber === 1 && this.startsFile) {
      const first = parseRecord(text);
      if (!first.ok || first.record.kind !== 'header') {
        throw new SessionReadError(`${this.file} is not a readable session: its first line is not a session header.`);
      }
      data.header = first.record;
      return;
    }
    if (text.trim().length === 0) return;
    const parsed = parseRecord(text);
    if (!parsed.ok) {
      data.corrupt.push({ line: lineNumber, reason: parsed.reason });
    } else if (parsed.record.kind === 'event') {
      this.event(parsed.record.event, length);
      data.eventLines.offsets.push(offset);
      data.eventLines.lengths.push(length);
    } else if (parsed.record.kind === 'reasoning') {
      this.pendingReasoning = parsed.record.blocks;
      this.sawReasoningOrAssistant = true;
    } else if (parsed.record.kind === 'tool_content') {
      data.contents.set(parsed.record.call_id, parsed.record);
    } else {
      data.corrupt.push({ line: lineNumber, reason: 'a second session header' });
    }
  };

  private event(event: StatusEvent, length: number): void {
    const { data, kept } = this;
    const list = kept ? kept.history : data.events;
    if (kept === null) data.events.push(event);
    else {
      kept.newest.add(event, length);
      if (contextEvent(event) || event.type === 'step_usage') kept.history.push(event);
    }
    if (event.type === 'assistant_message') {
      const index = list.length - 1;
      if (this.pendingReasoning) data.reasoning.push([index, this.pendingReasoning]);
      else if (!this.sawReasoningOrAssistant) data.openingAssistant = index;
      this.pendingReasoning = null;
      this.sawReasoningOrAssistant = true;
    }
    count(data.tally, event);
  }

  part(): ReplayPart {
    const data = this.data;
    data.lines = this.lineNumber;
    data.trailingReasoning = this.pendingReasoning;
    if (this.kept) data.newest = this.kept.newest.held();
    return data;
  }
}

function newTally(): Tally {
  return {
    calls: new Map(),
    done: new Set(),
    asked: new Set(),
    openTurns: new Set(),
    answered: new Set(),
    ended: new Set(),
    lastSeq: 0,
    usage: { input_tokens: 0, output_tokens: 0 },
    firstUser: null,
    updatedAt: null,
    format1: false,
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
  else if (event.type === 'tool_approval_resolved') {
    asked.delete(event.call_id);
    tally.answered.add(event.call_id);
  } else if (event.type === 'turn_started') openTurns.add(event.turn_id);
  else if (event.type === 'user_message' && tally.firstUser === null) tally.firstUser = event.text;
  else if (event.type === 'turn_completed' || event.type === 'turn_failed') {
    openTurns.delete(event.turn_id);
    tally.ended.add(event.turn_id);
    if (event.usage) {
      usage.input_tokens += event.usage.input_tokens;
      usage.output_tokens += event.usage.output_tokens;
    }
  }
}

/**
 * Two parts read apart, `older` just before `newer` in the file, as one pass over both reads them.
 * Takes over both: the older part's collections (the larger, most often) are added to in place.
 */
export function mergeParts(older: ReplayPart, newer: ReplayPart, newestPage?: number): ReplayPart {
  const shift = (older.history ?? older.events).length;
  // The older part's last reasoning record belongs to the newer part's first message, if nothing came between.
  if (older.trailingReasoning && newer.openingAssistant >= 0) {
    older.reasoning.push([newer.openingAssistant + shift, older.trailingReasoning]);
  }
  for (const [index, blocks] of newer.reasoning) older.reasoning.push([index + shift, blocks]);
  for (const [callId, record] of newer.contents) older.contents.set(callId, record);
  for (const { line, reason } of newer.corrupt) older.corrupt.push({ line: line + older.lines, reason });
  append(older.events, newer.events);
  if (older.history && newer.history) append(older.history, newer.history);
  append(older.eventLines.offsets, newer.eventLines.offsets);
  append(older.eventLines.lengths, newer.eventLines.lengths);
  return {
    ...older,
    lines: older.lines + newer.lines,
    newest:
      older.newest && newer.newest
        ? newestOf(older.newest, newer.newest, newer.eventLines.offsets.length, newestPage ?? 0)
        : null,
    history: older.history && newer.history ? older.history : null,
    trailingReasoning: newer.trailingReasoning,
    tally: mergeTallies(older.tally, newer.tally),
  };
}

/** Pushed one by one: a spread of tens of thousands of items overflows a call's arguments. */
function append<T>(list: T[], more: readonly T[]): void {
  for (const item of more) list.push(item);
}

type Newest = NonNullable<ReplayPart['newest']>;

/** The newest events of both parts: the newer part's alone once it let go of some of its own. */
function newestOf(older: Newest, held: Newest, newerEvents: number, budget: number): Newest {
  if (held.events.length < newerEvents) return held;
  const newest = new NewestEvents(budget);
  for (const { events, lengths } of [older, held]) {
    events.forEach((event, index) => newest.add(event, lengths[index] ?? 0));
  }
  return newest.held();
}

function mergeTallies(older: Tally, newer: Tally): Tally {
  for (const [callId, name] of newer.calls) older.calls.set(callId, name);
  for (const callId of newer.done) older.done.add(callId);
  // What the older part left open stays open, where it was, unless the newer part closed it (then
  // only if the newer part opened it again, at its place there), as one pass over both would leave it.
  const stillOpen = (open: Set<string>, closed: Set<string>, opened: Set<string>) =>
    new Set([...[...open].filter((id) => !closed.has(id)), ...opened]);
  return {
    ...older,
    asked: stillOpen(older.asked, newer.answered, newer.asked),
    openTurns: stillOpen(older.openTurns, newer.ended, newer.openTurns),
    answered: new Set([...older.answered, ...newer.answered]),
    ended: new Set([...older.ended, ...newer.ended]),
    lastSeq: Math.max(older.lastSeq, newer.lastSeq),
    usage: {
      input_tokens: older.usage.input_tokens + newer.usage.input_tokens,
      output_tokens: older.usage.output_tokens + newer.usage.output_tokens,
    },
    firstUser: older.firstUser ?? newer.firstUser,
    updatedAt: newer.updatedAt ?? older.updatedAt,
    format1: older.format1 || newer.format1,
  };
}
