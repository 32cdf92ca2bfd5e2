import { copyFile, link, mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { StatusEvent } from '../../protocol/events.ts';
import { parseRecord, serializeRecord, type HeaderRecord } from './records.ts';
import { BLOBS_FOLDER } from '../tools/mcp/mcp-blobs.ts';
import { titleOf } from './replay.ts';
import { IMAGES_FOLDER } from './session-images.ts';
import { assertSessionId, newSessionId, sessionDirOf, sessionFileOf } from './session-log.ts';
import { readTitle, writeTitle } from './session-titles.ts';

// Rewinding the conversation: a new session forked from another at the start of one of its turns.
// The fork holds the original's lines before that turn, byte for byte, under a header that names
// its parent; the original is not touched and stays listed. The turn's user message is handed
// back for the composer, to be edited and sent again.
//
// A fork is at a turn's start, also when asked from one of the turn's calls: the model then sees
// the conversation as it was when the person wrote that message, never a turn cut mid-way (a
// provider refuses tool calls without their results, and a half turn would read as a crash).
//
// So that the fork never passes for its original in a list, it is named after it with a mark
// ("↳ Plan the release"), and its header says which of the person's messages it goes back before.

/** Where to fork: before a turn (its user message), or before the turn that holds a call. */
export type ForkPoint = { turnId: string } | { callId: string };

export interface ForkOutcome {
  /** The new session's id. */
  id: string;
  header: HeaderRecord;
  /** The turn the fork stops before. */
  turnId: string;
  /** That turn's user message: what the composer holds. */
  message: string;
  /** Lines of the original kept in the fork (the header not counted). */
  kept: number;
}

export class ForkError extends Error {
  override name = 'ForkError';
}

/** Parent of a forked session, as its header records it. */
export type ForkParent = NonNullable<HeaderRecord['parent']>;

/** What marks a fork's name. */
export const FORK_MARK = '↳ ';

export interface ForkOptions {
  now?: () => Date;
  /**
   * Events the fork holds after the original's lines (the code rewind made with it, whose card and
   * undo belong with the conversation the person goes on in); stamped as the fork's next events.
   */
  append?: readonly StatusEvent[];
}

/**
 * Writes the fork of session `id` under `root` and returns it. The fork's file appears whole or
 * not at all (written aside, flushed, then linked under its name), so a crash leaves no half fork.
 */
export async function forkSession(
  root: string,
  id: string,
  at: ForkPoint,
  options: ForkOptions = {},
): Promise<ForkOutcome> {
  assertSessionId(id);
  const folder = path.resolve(root);
  const bytes = await readFile(sessionFileOf(folder, id)).catch((error: NodeJS.ErrnoException) => {
    throw new ForkError(
      error.code === 'ENOENT'
        ? `No session ${id} in ${folder}: list them with \`aether sessions\`.`
        : `Could not read session ${id} (${error.code ?? error.message}).`,
    );
  });
  const lines = wholeLines(bytes);
  const first = lines[0] === undefined ? null : parseRecord(lines[0].toString('utf8'));
  if (!first?.ok || first.record.kind !== 'header')
    throw new ForkError(`Session ${id} cannot be forked: its first line is not a session header.`);

  const { cut, turnId, message, number, firstMessage, lastSeq } = findCut(lines, at, id);
  const now = options.now ?? (() => new Date());
  const forkId = newSessionId(now());
  const parent: ForkParent = {
    session: id,
    turn_id: turnId,
    ...('callId' in at ? { call_id: at.callId } : {}),
    message: number,
  };
  const header: HeaderRecord = { ...first.record, id: forkId, created_at: now().toISOString(), parent };
  const stampedAt = now().toISOString();
  const appended = (options.append ?? []).map((event, index) =>
    Buffer.from(serializeRecord({ kind: 'event', event: { ...event, seq: lastSeq + index + 1, at: stampedAt } })),
  );
  const kept = lines.slice(1, cut);
  // The parent's checkpoints come along (hard links: their files are never changed in place), so
  // the cards the fork keeps can still rewind the code.
  await linkTree(
    path.join(sessionDirOf(folder, id), 'checkpoints'),
    path.join(sessionDirOf(folder, forkId), 'checkpoints'),
  );
  // So are the images its lines name (the person's and tool results'), written once by hash.
  await linkTree(
    path.join(sessionDirOf(folder, id), IMAGES_FOLDER),
    path.join(sessionDirOf(folder, forkId), IMAGES_FOLDER),
  );
  // And the binary resources of MCP results, kept by hash for their cards' Save….
  await linkTree(
    path.join(sessionDirOf(folder, id), BLOBS_FOLDER),
    path.join(sessionDirOf(folder, forkId), BLOBS_FOLDER),
  );
  await writeWhole(folder, forkId, Buffer.concat([Buffer.from(serializeRecord(header)), ...kept, ...appended]));
  const name = (await readTitle(folder, id)) ?? titleOf(firstMessage);
  await writeTitle(folder, forkId, `${FORK_MARK}${name.startsWith(FORK_MARK) ? name.slice(FORK_MARK.length) : name}`);
  return { id: forkId, header, turnId, message, kept: kept.length };
}

/** The file's complete lines, each with its newline; a torn last line is left out. */
function wholeLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, end + 1));
    start = end + 1;
  }
  return lines;
}

interface Cut {
  /** Index of the first line of the turn to fork before. */
  cut: number;
  turnId: string;
  /** That turn's user message. */
  message: string;
  /** Which of the person's messages it is, from 1. */
  number: number;
  /** The original's first message of the person (its name when it has none of its own). */
  firstMessage: string;
  /** The highest seq of the lines the fork keeps. */
  lastSeq: number;
}

/** Where the fork stops, and what it is named and numbered after. */
function findCut(lines: Buffer[], at: ForkPoint, id: string): Cut {
  const events = lines.map((line) => {
    const parsed = parseRecord(line.toString('utf8'));
    return parsed.ok && parsed.record.kind === 'event' ? parsed.record.event : null;
  });
  let turnId = 'turnId' in at ? at.turnId : null;
  if (turnId === null && 'callId' in at) {
    for (const event of events) {
      if (event?.type === 'assistant_message' && event.tool_calls.some((call) => call.call_id === at.callId))
        turnId = event.turn_id;
      else if (event?.type === 'user_message' && (event.mention_calls ?? []).includes(at.callId))
        turnId = event.turn_id;
      if (turnId !== null) break;
    }
    if (turnId === null)
      throw new ForkError(`Session ${id} has no call ${at.callId}: give a call id or a turn id from this session.`);
  }
  const cut = events.findIndex((event) => event !== null && 'turn_id' in event && event.turn_id === turnId);
  const user = events.find((event) => event?.type === 'user_message' && event.turn_id === turnId);
  if (cut === -1 || !user || user.type !== 'user_message')
    throw new ForkError(`Session ${id} has no turn ${turnId ?? ''} with a message of the person to rewind to.`);
  const before = events.slice(0, cut);
  const first = events.find((event) => event?.type === 'user_message');
  return {
    cut,
    turnId: turnId ?? '',
    message: user.text,
    number: before.filter((event) => event?.type === 'user_message').length + 1,
    firstMessage: first?.type === 'user_message' ? first.text : user.text,
    lastSeq: before.reduce((last, event) => Math.max(last, event?.seq ?? 0), 0),
  };
}

async function writeWhole(folder: string, id: string, data: Buffer): Promise<void> {
  const file = sessionFileOf(folder, id);
  const temp = `${file}.fork-tmp`;
  await mkdir(sessionDirOf(folder, id), { recursive: true, mode: 0o700 });
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    // link, not rename: it never replaces a session that took the name meanwhile.
    await link(temp, file);
  } finally {
    await rm(temp, { force: true });
  }
  const dir = await open(folder, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

/** Hard-links every file under `from` into `to` (copies where links are refused); skips temp files and journals. */
async function linkTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { withFileTypes: true }).catch(() => null);
  if (entries === null) return; // None (checkpoints turned off or only reads so far; no images).
  await mkdir(to, { recursive: true, mode: 0o700 });
  for (const entry of entries) {
    if (entry.name.includes('.tmp') || entry.name === 'rewind-journal.json') continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await linkTree(source, target);
    else if (entry.isFile()) await link(source, target).catch(() => copyFile(source, target));
  }
}
