import path from 'node:path';
import type { StatusEvent } from '../../../protocol/events.ts';
import { openSession } from '../../session/catalog.ts';
import { assertSessionId, sessionDirOf } from '../../session/session-log.ts';

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
