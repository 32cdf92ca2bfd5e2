import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteSession, listSessions } from './catalog.ts';
import { SessionLog } from './session-log.ts';
import { SessionSink } from './session-sink.ts';
import { searchSessions, snippetAround } from './session-search.ts';
import { readTitle, writeTitle } from './session-titles.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-session-search-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function session(question: string, answer: string): Promise<string> {
  const log = await SessionLog.create({ root, workspace: '/w', model: 'demo' });
  const sink = new SessionSink(log, { emit: () => undefined });
  await sink.emit({ type: 'user_message', turn_id: 't1', text: question });
  await sink.emit({ type: 'assistant_message', turn_id: 't1', text: answer, tool_calls: [] });
  await log.close();
  return log.id;
}

describe('searchSessions', () => {
  it('finds sessions by what the person or the model wrote, with the words around it', async () => {
    const first = await session('Where is the config?', 'In the Attic folder, under boxes.');
    await session('Unrelated', 'Nothing to see.');
    const matches = await searchSessions(root, 'attic');
    expect(matches).toEqual([{ id: first, snippet: 'In the Attic folder, under boxes.' }]);
    expect(await searchSessions(root, '   ')).toEqual([]);
  });

  it('finds a session by the name it was given', async () => {
    const id = await session('Question', 'Answer');
    await writeTitle(root, id, 'Quarterly budget');
    expect(await searchSessions(root, 'budget')).toEqual([{ id, snippet: 'Quarterly budget' }]);
  });

  it('answers an empty list for a sessions folder that does not exist', async () => {
    expect(await searchSessions(path.join(root, 'missing'), 'x')).toEqual([]);
  });
});

describe('session titles', () => {
  it('keeps a rename across listings, goes back to the first message when blank, and is deleted with the session', async () => {
    const id = await session('First question here', 'Answer');
    await writeTitle(root, id, '  My name  ');
    expect((await listSessions(root))[0]?.title).toBe('My name');
    await writeTitle(root, id, '');
    expect(await readTitle(root, id)).toBeNull();
    expect((await listSessions(root))[0]?.title).toBe('First question here');
    await writeTitle(root, id, 'Again');
    await deleteSession(root, id);
    expect(await readTitle(root, id)).toBeNull();
  });

  it('refuses to name a session that does not exist, saying so', async () => {
    await expect(writeTitle(root, '20250101-000000-abcdef', 'x')).rejects.toThrow(/No session/);
  });
});

describe('snippetAround', () => {
  it('cuts long text around the match with ellipses', () => {
    const text = `${'a'.repeat(100)} needle ${'b'.repeat(100)}`;
    const snippet = snippetAround(text, 101, 6);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('needle');
  });
});
