import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AgentSessionSummary, OpenedSession, SessionNotice, SessionSummary } from '../../protocol/api.ts';
import { scanLines } from './line-reader.ts';
import { parseRecord, type HeaderRecord } from './records.ts';
import { readSessionFile, titleOf, type SessionReplay } from './replay.ts';
import { SessionLock } from './session-lock.ts';
import { readTitle, withTitle } from './session-titles.ts';
import { agentsFolderOf, locateSession } from './session-places.ts';
import { assertSessionId, isSessionId, sessionDirOf, sessionFileOf, sessionLockOf } from './session-log.ts';

// The sessions folder as a list: summaries for the picker, a read-only open for viewing, delete.

export function summaryOf(replay: SessionReplay): SessionSummary {
  const { header } = replay;
  return {
    id: header.id,
    title: replay.title,
    workspace: header.workspace,
    created_at: header.created_at,
    updated_at: replay.updatedAt,
    model: header.model,
    ...(header.parent ? { parent: header.parent } : {}),
    ...(header.agent_of ? { agent_of: header.agent_of } : {}),
  };
}

export interface OpenedOptions {
  /** Its turn may still be running in this process. */
  live?: boolean;
  /** The session was resumed: a torn tail was cut off into `<file>.corrupt`. */
  resumed?: boolean;
}

/**
 * What the panel draws for a replayed session; a torn tail counts as one unreadable line. A `live`
 * session (its turn may still be running in this process) is drawn without the repair events,
 * which would otherwise end its running turn, calls and approvals on the panel.
 */
export function openedOf(replay: SessionReplay, options: OpenedOptions = {}): OpenedSession {
  const repairEvents = options.live ? replay.repairs.filter((record) => record.kind === 'event').length : 0;
  const events = replay.events.slice(0, replay.events.length - repairEvents);
  const damage = damageNotice(replay, options);
  return {
    summary: summaryOf(replay),
    events,
    ...(replay.older > 0 ? { older: replay.older } : {}),
    corrupt_lines: replay.corrupt.length + (replay.torn ? 1 : 0),
    usage: replay.usage,
    ...(damage ? { notices: [damage] } : {}),
  };
}

/** Lines of a session file that could not be read back: how many, and where their bytes are now. */
export function damageNotice(replay: SessionReplay, options: { resumed?: boolean } = {}): SessionNotice | null {
  const { corrupt, torn, file } = replay;
  if (corrupt.length === 0 && !torn) return null;
  const parts: string[] = [];
  if (corrupt.length > 0) {
    const shown = corrupt.slice(0, 5).map((entry) => entry.line);
    const more = corrupt.length > shown.length ? ` and ${corrupt.length - shown.length} more` : '';
    parts.push(
      `${plural(corrupt.length, 'line')} could not be read and ${corrupt.length === 1 ? 'was' : 'were'} skipped ` +
        `(${shown.length === 1 ? 'line' : 'lines'} ${shown.join(', ')}${more}, left as ${corrupt.length === 1 ? 'it is' : 'they are'} in ${file})`,
    );
  }
  if (torn) {
    const where = options.resumed ? `moved to ${file}.corrupt` : `left at the end of ${file}`;
    parts.push(`its last line was cut off mid-write (${plural(torn.bytes.length, 'byte')}, ${where})`);
  }
  const lines = corrupt.length + (torn ? 1 : 0);
  return {
    kind: 'damaged',
    lines,
    text: `Session ${replay.header.id} is damaged: ${parts.join('; ')}. What they held is left out.`,
  };
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Replays a session without touching its file (it may be in use); the repairs are shown, not written. */
export async function openSession(
  root: string,
  id: string,
  options: OpenedOptions = {},
): Promise<{ opened: OpenedSession; replay: SessionReplay }> {
  assertSessionId(id);
  const replay = await readSessionFile(sessionFileOf(path.resolve(root), id));
  const opened = openedOf(replay, options);
  // The name the person gave it, if any, replaces the one taken from its first message.
  return { opened: { ...opened, summary: await withTitle(root, opened.summary) }, replay };
}

/** Newest first. Reads each file only up to its first user message; a file without a header is left out. */
export async function listSessions(root: string): Promise<SessionSummary[]> {
  const folder = path.resolve(root);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new Error(`Could not list the sessions folder ${folder}: ${(error as Error).message}`);
  }
  const summaries: SessionSummary[] = [];
  for (const name of names) {
    if (!name.endsWith('.jsonl') || !isSessionId(name.slice(0, -'.jsonl'.length))) continue;
    const summary = await peekSummary(path.join(folder, name));
    if (!summary) continue;
    const agents = await childSummaries(folder, summary.id);
    summaries.push({ ...(await withTitle(folder, summary)), ...(agents.length > 0 ? { agents } : {}) });
  }
  return summaries.sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id.localeCompare(a.id));
}

/** The newest session of a workspace (by last activity), or null when it has none in this folder. */
export async function newestSessionOf(root: string, workspace: string): Promise<SessionSummary | null> {
  return (await listSessions(root)).find((summary) => summary.workspace === workspace) ?? null;
}

/** The model a session's newest turn ran on (the panel may have switched it), else the one it started with. */
export function recordedModel(replay: SessionReplay): string {
  for (let index = replay.events.length - 1; index >= 0; index -= 1) {
    const event = replay.events[index]!;
    if (event.type === 'turn_started') return event.model;
  }
  return replay.header.model;
}

/** A session's summary from its first lines (whose workspace it is), without reading it whole. */
export async function peekSession(root: string, id: string): Promise<SessionSummary> {
  assertSessionId(id);
  const file = sessionFileOf(path.resolve(root), id);
  const summary = await peekSummary(file);
  if (summary) return summary;
  const top = (await locateSession(root, id))?.parents[0];
  // An agent's session is only read: its parent's agent call is what talked to it.
  if (top !== undefined)
    throw new Error(
      `Session ${id} is an agent's session, kept with session ${top}: it is only read (\`aether export ${id}\` prints it); go on with session ${top} instead.`,
    );
  throw new Error(`No readable session ${id} in ${path.resolve(root)}: its file is missing or has no header.`);
}

/** The sessions a session's `agent` calls started (`<its folder>/agents/`), oldest first, each with its own. */
async function childSummaries(folder: string, id: string, depth = 0): Promise<AgentSessionSummary[]> {
  const children = agentsFolderOf(folder, id);
  const names = await readdir(children).catch(() => [] as string[]);
  const found: AgentSessionSummary[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith('.jsonl') || !isSessionId(name.slice(0, -'.jsonl'.length))) continue;
    const peeked = await peekSummary(path.join(children, name), true);
    if (!peeked) continue;
    // Agents that start agents are few levels deep; a runaway nesting is listed no further.
    const nested = depth < 7 ? await childSummaries(children, peeked.id, depth + 1) : [];
    found.push({
      id: peeked.id,
      agent: peeked.agent,
      title: peeked.title,
      ...(nested.length > 0 ? { agents: nested } : {}),
    });
  }
  return found;
}

/** A session's name in folder `folder` (the person's, else its first message's), or null when it cannot be read. */
export async function sessionTitleAt(folder: string, id: string): Promise<string | null> {
  const named = await readTitle(folder, id);
  if (named !== null) return named;
  return (await peekSummary(sessionFileOf(folder, id)))?.title ?? null;
}

async function peekSummary(file: string): Promise<SessionSummary | null>;
async function peekSummary(file: string, child: true): Promise<(SessionSummary & { agent: string }) | null>;
async function peekSummary(file: string, child = false): Promise<(SessionSummary & { agent?: string }) | null> {
  const found: { header: HeaderRecord | null; title: string } = { header: null, title: '' };
  const read = await scanLines(
    file,
    ({ text }) => {
      const parsed = parseRecord(text);
      if (!found.header) {
        // A first line that is not a header: not a session, and nothing more to read.
        if (!parsed.ok || parsed.record.kind !== 'header') return false;
        found.header = parsed.record;
        return true;
      }
      if (!parsed.ok || parsed.record.kind !== 'event' || parsed.record.event.type !== 'user_message') return true;
      found.title = titleOf(parsed.record.event.text);
      return false;
    },
    // The header and the first message are near the start: a list of many sessions reads little of each.
    { chunkBytes: 16 * 1024 },
  ).then(
    () => true,
    () => false,
  );
  const { header, title } = found;
  if (!read || !header) return null;
  // The file's last write is the session's last activity; reading every line to find it is not needed.
  const modified = await stat(file).then(
    (info) => info.mtime.toISOString(),
    () => header.created_at,
  );
  return {
    id: header.id,
    title,
    workspace: header.workspace,
    created_at: header.created_at,
    updated_at: modified,
    model: header.model,
    ...(header.parent ? { parent: header.parent } : {}),
    ...(header.as_agent ? { as_agent: header.as_agent } : {}),
    ...(header.agent_of ? { agent_of: header.agent_of } : {}),
    ...(child ? { agent: header.agent_of?.agent ?? 'agent' } : {}),
  };
}

/** Removes the session file, its folder (spilled output) and any `.corrupt` sidecar. */
export async function deleteSession(root: string, id: string): Promise<void> {
  assertSessionId(id);
  const folder = path.resolve(root);
  const file = sessionFileOf(folder, id);
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  if (!exists) {
    const place = await locateSession(folder, id);
    const top = place?.parents[0];
    // An agent's transcript belongs to its parent's agent card: it goes when its parent does.
    if (top !== undefined)
      throw new Error(
        `Session ${id} is an agent's session, kept with session ${top} (its agent card shows it): it is deleted with that session, not on its own.`,
      );
    throw new Error(`No session ${id} in ${folder}. List the sessions with \`aether sessions\`.`);
  }
  // A session another process is writing is not pulled from under it.
  const lock = await SessionLock.acquire(sessionLockOf(folder, id), id);
  try {
    await rm(file, { force: true });
    await rm(`${file}.corrupt`, { force: true });
    await rm(sessionDirOf(folder, id), { recursive: true, force: true });
  } finally {
    await lock.release();
  }
}
