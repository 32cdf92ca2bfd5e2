import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SessionSummary } from '../../protocol/api.ts';
import { assertSessionId, sessionDirOf, sessionFileOf } from './session-log.ts';

// A session's name, as the person renamed it. The log stays append-only and may be held by another
// process, so the name lives beside it, in the session's own folder (deleted with it); a session
// without one is named after its first message, as before.

/** The longest name kept; a longer one is cut. */
export const MAX_TITLE_CHARS = 200;

function titleFileOf(root: string, id: string): string {
  return path.join(sessionDirOf(root, id), 'title.json');
}

/** The name the person gave the session, or null. */
export async function readTitle(root: string, id: string): Promise<string | null> {
  try {
    const parsed: unknown = JSON.parse(await readFile(titleFileOf(path.resolve(root), id), 'utf8'));
    if (parsed && typeof parsed === 'object' && 'title' in parsed && typeof parsed.title === 'string')
      return parsed.title.trim() === '' ? null : parsed.title;
    return null;
  } catch {
    return null;
  }
}

/** Names the session durably (written whole, then moved into place); a blank name goes back to the first message. */
export async function writeTitle(root: string, id: string, title: string): Promise<void> {
  assertSessionId(id);
  const folder = path.resolve(root);
  const exists = await stat(sessionFileOf(folder, id)).then(
    () => true,
    () => false,
  );
  if (!exists) throw new Error(`No session ${id} in ${folder}; it may have been deleted. Refresh the list.`);
  const file = titleFileOf(folder, id);
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify({ title: title.trim().slice(0, MAX_TITLE_CHARS) })}\n`, { mode: 0o600 });
  await rename(temp, file);
}

/** The summary with the person's name for it, when there is one. */
export async function withTitle(root: string, summary: SessionSummary): Promise<SessionSummary> {
  const title = await readTitle(root, summary.id);
  return title === null ? summary : { ...summary, title };
}
