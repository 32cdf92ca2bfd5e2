import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { SessionMatch } from '../../protocol/api.ts';
import { parseRecord } from './records.ts';
import { isSessionId, sessionFileOf } from './session-log.ts';
import { readTitle } from './session-titles.ts';

// The session list's search: which sessions hold the words in their name or in a message (the
// person's or the model's), with a snippet of the first place they do. Each file is read line by
// line and left as soon as it matches.

const SNIPPET_RADIUS = 40;

export function snippetAround(text: string, at: number, length: number): string {
  const start = Math.max(0, at - SNIPPET_RADIUS);
  const end = Math.min(text.length, at + length + SNIPPET_RADIUS);
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}

async function firstMessageMatch(file: string, needle: string): Promise<string | null> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return null;
  try {
    for await (const line of handle.readLines({ autoClose: false })) {
      // Most lines are tool results; only message lines can match, and a cheap test skips the rest.
      if (!line.includes('"user_message"') && !line.includes('"assistant_message"')) continue;
      const parsed = parseRecord(line);
      if (!parsed.ok || parsed.record.kind !== 'event') continue;
      const { event } = parsed.record;
      if (event.type !== 'user_message' && event.type !== 'assistant_message') continue;
      const at = event.text.toLocaleLowerCase().indexOf(needle);
      if (at !== -1) return snippetAround(event.text, at, needle.length);
    }
    return null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** Sessions whose name or messages hold `query` (case-insensitive); none for a blank query. */
export async function searchSessions(root: string, query: string): Promise<SessionMatch[]> {
  const needle = query.trim().toLocaleLowerCase();
  if (needle === '') return [];
  const folder = path.resolve(root);
  const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw new Error(`Could not search the sessions folder ${folder}: ${error.message}`);
  });
  const matches: SessionMatch[] = [];
  for (const name of names) {
    const id = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
    if (!isSessionId(id)) continue;
    const title = await readTitle(folder, id);
    const titleAt = title?.toLocaleLowerCase().indexOf(needle) ?? -1;
    if (title !== null && titleAt !== -1) {
      matches.push({ id, snippet: snippetAround(title, titleAt, needle.length) });
      continue;
    }
    const snippet = await firstMessageMatch(sessionFileOf(folder, id), needle);
    if (snippet !== null) matches.push({ id, snippet });
  }
  return matches;
}
