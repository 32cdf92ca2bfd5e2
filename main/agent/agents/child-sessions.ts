import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { StatusEvent } from '../../../protocol/events.ts';
import { openSession, sessionTitleAt } from '../../session/catalog.ts';
import { agentsFolderOf, locateSession, sessionFolderOf, type SessionPlace } from '../../session/session-places.ts';
import { scanLines } from '../../session/line-reader.ts';
import { parseRecord, type HeaderRecord } from '../../session/records.ts';
import { assertSessionId, isSessionId, SessionLog, sessionDirOf, sessionLockOf } from '../../session/session-log.ts';

// Where a session's children are: `<its folder>/agents/<child id>.jsonl`, each a session file like
// any other (replayed by the same reader), never listed among the top-level sessions.

export function childSessionsRoot(sessionsRoot: string, parent: string): string {
  assertSessionId(parent);
  return agentsFolderOf(path.resolve(sessionsRoot), parent);
}

/** Where the agents of session `parent` are, whether it is a top-level session or an agent's itself. */
async function agentsOf(sessionsRoot: string, parent: string): Promise<string> {
  return agentsFolderOf(await sessionFolderOf(sessionsRoot, parent), parent);
}

/** A child's events as its file holds them (read, never resumed: it may still be running). */
export async function childSessionEvents(sessionsRoot: string, parent: string, child: string): Promise<StatusEvent[]> {
  const folder = await agentsOf(sessionsRoot, parent);
  const { opened } = await openSession(folder, child, { live: true }).catch((error: unknown) => {
    throw new Error(
      `The transcript of agent session ${child} could not be read from ${folder}: ${(error as Error).message}`,
    );
  });
  return opened.events;
}

/** An agent's session read to be shown (never resumed), with its parent's name; null for a session that is no agent's. */
export async function readAgentSession(sessionsRoot: string, id: string): Promise<AgentSessionFile | null> {
  const place = await locateSession(sessionsRoot, id);
  const parent = place?.parents.at(-1);
  if (!place || parent === undefined) return null;
  // A child still holding its lock is running (in another process): its open calls are not drawn as interrupted.
  const running = await stat(sessionLockOf(place.folder, id)).then(
    () => true,
    () => false,
  );
  const file = await openSession(place.folder, id, { live: running });
  const parentTitle = await sessionTitleAt(path.dirname(path.dirname(place.folder)), parent);
  const agentOf = file.opened.summary.agent_of ?? { session: parent, call_id: '', agent: 'agent' };
  const summary = {
    ...file.opened.summary,
    agent_of: { ...agentOf, ...(parentTitle ? { parent_title: parentTitle } : {}) },
  };
  return { ...file, opened: { ...file.opened, summary }, place };
}

export type AgentSessionFile = Awaited<ReturnType<typeof openSession>> & { place: SessionPlace };

/**
 * The children a crash left open under a session's folder — their lock is still there, since a
 * child that ended closed its file and dropped it — each reopened once and closed again: the reopen
 * writes what closes what it left open (its calls as interrupted, its questions as refused, its
 * turn as failed), as a resumed session's does. Their own children too. A child another running
 * process holds is left as it is. Returns the ids repaired.
 */
export async function repairChildSessions(sessionDir: string): Promise<string[]> {
  const folder = path.join(sessionDir, 'agents');
  const names = await readdir(folder).catch(() => [] as string[]);
  const repaired: string[] = [];
  for (const name of names) {
    const id = name.slice(0, -'.lock'.length);
    if (!name.endsWith('.lock') || !isSessionId(id) || !names.includes(`${id}.jsonl`)) continue;
    try {
      const { log } = await SessionLog.resume(folder, id);
      await log.close();
    } catch {
      // Held by a running process, or unreadable: its transcript is shown as it is.
      continue;
    }
    repaired.push(id, ...(await repairChildSessions(sessionDirOf(folder, id))));
  }
  return repaired;
}

/** The child an `agent` call of session `parent` started, by the call's id (its file's header names the call). */
export async function childOfCall(sessionsRoot: string, parent: string, callId: string): Promise<string> {
  const folder = await agentsOf(sessionsRoot, parent);
  const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.jsonl')).sort();
  for (const name of names) {
    const found: { header: HeaderRecord | null } = { header: null };
    // The header is the first line: nothing more is read.
    await scanLines(path.join(folder, name), ({ text }) => {
      const parsed = parseRecord(text);
      if (parsed.ok && parsed.record.kind === 'header') found.header = parsed.record;
      return false;
    }).catch(() => undefined);
    if (found.header?.agent_of?.call_id === callId) return name.slice(0, -'.jsonl'.length);
  }
  throw new Error(`The agent call ${callId} started no agent session (it ended before its agent opened).`);
}
