import { access, appendFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StatusRecorder } from '../status/sink.ts';
import { deleteSession, listSessions, openSession } from './catalog.ts';
import { SessionLog } from './session-log.ts';
import { SessionSink } from './session-sink.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-catalog-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function session(id: string, workspace: string, text?: string): Promise<SessionLog> {
  const log = await SessionLog.create({ root, workspace, model: 'demo', id });
  if (text !== undefined)
    await new SessionSink(log, new StatusRecorder()).emit({ type: 'user_message', turn_id: 't1', text });
  await log.close();
  return log;
}

describe('listSessions', () => {
  it('titles each session with the first line of its first user message', async () => {
    await session('a-1', '/one', 'Fix the parser\nand add tests');
    await session('b-2', '/two');
    const list = await listSessions(root);
    expect(list.map((entry) => [entry.id, entry.title, entry.workspace]).sort()).toEqual([
      ['a-1', 'Fix the parser', '/one'],
      ['b-2', '', '/two'],
    ]);
  });

  it('leaves out files that are not sessions', async () => {
    await session('a-1', '/one', 'hi');
    await writeFile(path.join(root, 'notes.jsonl'), 'not json\n');
    await writeFile(path.join(root, 'readme.txt'), 'x');
    expect((await listSessions(root)).map((entry) => entry.id)).toEqual(['a-1']);
  });

  it('closes every session file it opened, also those it stopped reading at the title', async () => {
    for (const id of ['e-1', 'e-2', 'e-3']) {
      const log = await SessionLog.create({ root, workspace: '/w', model: 'demo', id });
      const sink = new SessionSink(log, new StatusRecorder());
      await sink.emit({ type: 'user_message', turn_id: 't1', text: 'First' });
      await sink.emit({ type: 'user_message', turn_id: 't1', text: 'Second' });
      await log.close();
    }
    const openFiles = async (): Promise<number> => (await readdir('/proc/self/fd')).length;
    const before = await openFiles();
    await listSessions(root);
    expect(await openFiles()).toBe(before);
  });

  it('lists nothing when the sessions folder does not exist yet', async () => {
    expect(await listSessions(path.join(root, 'missing'))).toEqual([]);
  });
});

describe('openSession', () => {
  it('counts a torn tail among the unreadable lines without changing the file', async () => {
    const log = await session('c-3', '/w', 'hello');
    await appendFile(log.file, '{"kind":');
    const { opened } = await openSession(root, 'c-3');
    expect(opened.corrupt_lines).toBe(1);
    expect(opened.summary.title).toBe('hello');
    expect(opened.events.map((event) => event.type)).toEqual(['user_message']);
  });
});

describe('deleteSession', () => {
  it('removes the file, its folder and its sidecar', async () => {
    const log = await session('d-4', '/w', 'bye');
    await writeFile(`${log.file}.corrupt`, 'x');
    await deleteSession(root, 'd-4');
    for (const target of [log.file, log.dir, `${log.file}.corrupt`]) {
      await expect(access(target)).rejects.toThrow();
    }
  });

  it('says which session is missing', async () => {
    await expect(deleteSession(root, 'nope-1')).rejects.toThrow(/No session nope-1/);
  });
});

it("lists a session's agents' sessions under it, never on their own", async () => {
  const parent = await SessionLog.create({ root, workspace: '/w', model: 'm', id: '20261206-100000-aaaaaa' });
  await parent.close();
  const child = await SessionLog.create({
    root: path.join(root, parent.id, 'agents'),
    workspace: '/w',
    model: 'm',
    id: '20261206-100001-bbbbbb',
    agentOf: { session: parent.id, call_id: 'call-1', agent: 'explore' },
  });
  await child.appendEvent({ type: 'user_message', turn_id: 't1', text: 'Look in alpha/.', seq: 1 });
  await child.close();
  await mkdir(path.join(root, parent.id, 'agents', 'not-a-session'), { recursive: true });
  await writeFile(path.join(root, parent.id, 'agents', 'notes.txt'), 'not a session');
  const listed = await listSessions(root);
  expect(listed.map((summary) => summary.id)).toEqual([parent.id]);
  expect(listed[0]?.agents).toEqual([{ id: child.id, agent: 'explore', title: 'Look in alpha/.' }]);
});
