import { appendFile, mkdtemp, rm, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { writeBigSession } from '../../test/big-session.ts';
import { openedOf } from './catalog.ts';
import { SessionPages } from './event-pages.ts';
import { readSessionFile } from './replay.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-pages-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const BUDGET = 16 * 1024;
// Repairs are stamped with the time of the read: one clock, so two reads agree.
const read = (file: string) => readSessionFile(file, { now: () => new Date(Date.UTC(2026, 1, 1)) });

/** Every page from the newest to the first, put back together. */
async function allPages(file: string): Promise<{ events: StatusEvent[]; pages: number; largest: number }> {
  const replay = await read(file);
  const pages = new SessionPages(replay, BUDGET);
  const first = pages.first(openedOf(replay));
  let events = first.events;
  let count = 1;
  let largest = JSON.stringify(first).length;
  let before = first.older ?? 0;
  while (before > 0) {
    const page = await pages.before(before);
    expect(page.before).toBeLessThan(before);
    largest = Math.max(largest, JSON.stringify(page).length);
    events = page.events.concat(events);
    before = page.before;
    count += 1;
  }
  return { events, pages: count, largest };
}

describe('SessionPages', () => {
  it('gives the newest events first and every older event once, in order, page by page', async () => {
    const file = await writeBigSession({ root, id: 'long', workspace: '/w', calls: 120, callsPerTurn: 50 });
    const whole = (await read(file)).events;
    const { events, pages, largest } = await allPages(file);
    expect(events).toEqual(whole);
    expect(pages).toBeGreaterThan(5);
    // A page is about the budget: the events of one exec call are well under it.
    expect(largest).toBeLessThan(BUDGET * 1.5);
  });

  it('gives a session already cut to its newest page back as it is', async () => {
    const file = await writeBigSession({ root, id: 'long', workspace: '/w', calls: 120, callsPerTurn: 50 });
    const replay = await read(file);
    const pages = new SessionPages(replay, BUDGET);
    const first = pages.first(openedOf(replay));
    expect(first.older).toBeGreaterThan(0);
    expect(pages.first(first)).toEqual(first);
  });

  it('keeps a short session whole, with nothing older to ask for', async () => {
    const file = await writeBigSession({ root, id: 'short', workspace: '/w', calls: 3 });
    const replay = await read(file);
    const first = new SessionPages(replay).first(openedOf(replay));
    expect(first.events).toEqual(replay.events);
    expect(first.older).toBeUndefined();
  });

  it('leaves a torn tail out and closes the turn it left open, as replay does', async () => {
    const file = await writeBigSession({ root, id: 'damaged', workspace: '/w', calls: 60, callsPerTurn: 60 });
    const replay = await read(file);
    // The last line (the turn's end) cut off mid-write.
    await truncate(file, (replay.eventLines.offsets.at(-1) ?? 0) + 10);
    const damaged = await read(file);
    expect(damaged.torn).not.toBeNull();
    const { events } = await allPages(file);
    // The turn the torn line would have ended is closed by a repair, in the newest page.
    expect(events.at(-1)).toMatchObject({ type: 'turn_failed' });
    expect(events).toEqual(damaged.events);
  });

  it('skips a corrupt middle line and closes a dangling call in the newest page', async () => {
    const file = await writeBigSession({ root, id: 'dangling', workspace: '/w', calls: 80, callsPerTurn: 80 });
    const started = {
      kind: 'event',
      event: { type: 'tool_started', call_id: 'late', name: 'exec', args: { command: 'sleep 9' }, seq: 100_000 },
    };
    await appendFile(file, `not json at all\n${JSON.stringify(started)}\n`);
    const replay = await read(file);
    expect(replay.corrupt).toHaveLength(1);
    const { events } = await allPages(file);
    expect(events).toEqual(replay.events);
    expect(events.filter((event) => event.type === 'tool_completed' && event.call_id === 'late')).toMatchObject([
      { is_error: true, execution_time: 0 },
    ]);
  });

  it('refuses a page of a file that lost the lines it had', async () => {
    const file = await writeBigSession({ root, id: 'shrunk', workspace: '/w', calls: 60 });
    const replay = await read(file);
    const pages = new SessionPages(replay, BUDGET);
    const first = pages.first(openedOf(replay));
    await truncate(file, replay.eventLines.offsets[5] ?? 0);
    await expect(pages.before(first.older ?? 0)).rejects.toThrow(/open it again/);
  });
});
