import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { StatusEvent } from '../../../protocol/events.ts';
import { openSession } from '../../session/catalog.ts';
import { scanLines } from '../../session/line-reader.ts';
import { parseRecord, type HeaderRecord } from '../../session/records.ts';
import { assertSessionId, isSessionId, SessionLog, sessionDirOf } from '../../session/session-log.ts';

// Where a session's children are: `<its folder>/agents/<child id>.jsonl`, each a session file like
// any other (replayed by the same reader), never listed among the top-level sessions.

export function childSessionsRoot(sessionsRoot: string, parent: string): string {
  assertSessionId(parent);
  return path.join(sessionDirOf(path.resolve(sessionsRoot), parent), 'agents');
}

/** A child's events as its file holds them (read, never resumed: it may still be running). */
export async function childSessionEvents(sessionsRoot: string, parent: string, child: string): Promise<StatusEvent[]> {
  const { opened } = await openSession(childSessionsRoot(sessionsRoot, parent), child, { live: true }).catch(
    (error: unknown) => {
      throw new Error(
        `The transcript of agent session ${child} could not be read from ${childSessionsRoot(sessionsRoot, parent)}: ${(error as Error).message}`,
      );
    },
  );
  return opened.events;
}

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
  const folder = childSessionsRoot(sessionsRoot, parent);
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
