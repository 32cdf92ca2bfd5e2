import { appendFile, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeBigSession } from '../../test/big-session.ts';
import { openedOf } from './catalog.ts';
import { PAGE_BYTES, SessionPages } from './event-pages.ts';
import { readSessionFile, SessionReadError } from './replay.ts';
import { readPartInThread, sessionReaderParts, stopSessionReader, warmSessionReader } from './session-reader.ts';

let root: string;

beforeAll(async () => {
  expect(await warmSessionReader()).toBe(true);
});

afterAll(async () => {
  await stopSessionReader();
});

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-reader-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const now = () => new Date(Date.UTC(2026, 1, 1));

describe('the session reader thread', () => {
  it('reads the older half of a long session while the host reads the newer, to the same replay', async () => {
    // About 2.5 MB, with a call left open at the end so there is a repair to write.
    const file = await writeBigSession({ root, id: 'long', workspace: '/w', calls: 1_500, callsPerTurn: 70 });
    await appendFile(
      file,
      `${JSON.stringify({ kind: 'event', event: { type: 'tool_started', call_id: 'late', name: 'exec', args: { command: 'sleep 9' }, seq: 100_000 } })}\n`,
    );
    expect((await stat(file)).size).toBeGreaterThan(2 * 1024 * 1024);
    const options = { now, upgradeWhenShown: true, newestPage: PAGE_BYTES };
    const before = sessionReaderParts();
    const inParts = await readSessionFile(file, options);
    expect(sessionReaderParts()).toBe(before + 1);
    const whole = await readSessionFile(file, { now, upgradeWhenShown: true });

    const shown = (replay: typeof whole) => new SessionPages(replay).first(openedOf(replay, { resumed: true }));
    expect(shown(inParts)).toEqual(shown(whole));
    expect(inParts.context).toEqual(whole.context);
    expect(inParts.repairs).toEqual(whole.repairs);
    expect(inParts.eventLines).toEqual(whole.eventLines);
    expect([...inParts.contents]).toEqual([...whole.contents]);
  });

  it('says a file that is not a session is not one, from the part the thread read', async () => {
    const file = path.join(root, 'not.jsonl');
    await writeFile(file, `${'{"some":"json"}\n'.repeat(200_000)}`);
    await expect(readSessionFile(file, { newestPage: PAGE_BYTES })).rejects.toThrow(SessionReadError);
  });

  it('gives up a read when the thread stops, and starts a thread again for the next', async () => {
    const file = await writeBigSession({ root, id: 'long', workspace: '/w', calls: 1_500 });
    const read = readPartInThread(file, { end: 1_000_000, newestPage: PAGE_BYTES });
    expect(read).not.toBeNull();
    await stopSessionReader();
    await expect(read).rejects.toThrow(/stopped/);
    // Without a thread the host reads the whole file itself.
    expect(readPartInThread(file, { end: 1_000_000 })).toBeNull();
    const replay = await readSessionFile(file, { newestPage: PAGE_BYTES });
    expect(replay.eventLines).toEqual((await readSessionFile(file)).eventLines);
    expect(replay.events.length).toBeGreaterThan(0);
    expect(await warmSessionReader()).toBe(true);
  });
});
