import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { assertSessionId, isSessionId, sessionDirOf, sessionFileOf } from './session-log.ts';

// Where a session's file is. A top-level session is `<sessions>/<id>.jsonl`; the session an `agent`
// call started is `<its parent's folder>/agents/<id>.jsonl`, and its own agents' one level further
// down. Hosts that are given only an id (`aether export ID`, the panel's list) find it here.

/** How deep agents may start agents; deeper folders are not searched. */
const MAX_NESTING = 8;

export interface SessionPlace {
  id: string;
  /** The folder its file is in: the sessions folder, or a parent's `agents` folder. */
  folder: string;
  /** The sessions it is nested in, the top-level one first; empty for a top-level session. */
  parents: string[];
}

const isFile = (file: string) =>
  stat(file).then(
    (info) => info.isFile(),
    () => false,
  );

/** The folder of the agents session `parent` (which is in `folder`) started. */
export function agentsFolderOf(folder: string, parent: string): string {
  return path.join(sessionDirOf(folder, parent), 'agents');
}

/** Where session `id` is under sessions folder `root`, top-level or an agent's; null when it is in neither. */
export async function locateSession(root: string, id: string): Promise<SessionPlace | null> {
  assertSessionId(id);
  const top = path.resolve(root);
  if (await isFile(sessionFileOf(top, id))) return { id, folder: top, parents: [] };
  const parents = await readdir(top).catch(() => [] as string[]);
  for (const name of parents.sort()) {
    if (!name.endsWith('.jsonl')) continue;
    const parent = name.slice(0, -'.jsonl'.length);
    if (!isSessionId(parent)) continue;
    const found = await findUnder(agentsFolderOf(top, parent), id, [parent]);
    if (found) return found;
  }
  return null;
}

async function findUnder(folder: string, id: string, parents: string[]): Promise<SessionPlace | null> {
  const names = await readdir(folder).catch(() => null);
  if (!names) return null;
  if (names.includes(`${id}.jsonl`) && (await isFile(sessionFileOf(folder, id)))) return { id, folder, parents };
  if (parents.length >= MAX_NESTING) return null;
  for (const name of names.sort()) {
    if (!name.endsWith('.jsonl')) continue;
    const child = name.slice(0, -'.jsonl'.length);
    if (!isSessionId(child)) continue;
    const found = await findUnder(agentsFolderOf(folder, child), id, [...parents, child]);
    if (found) return found;
  }
  return null;
}

/** The folder session `id`'s file is in, or an error that says where it was looked for. */
export async function sessionFolderOf(root: string, id: string): Promise<string> {
  const place = await locateSession(root, id);
  if (!place)
    throw new Error(
      `No session ${id} in ${path.resolve(root)}, nor among its sessions' agents. List them with \`aether sessions\`.`,
    );
  return place.folder;
}
