import { appendFile, mkdtemp, rm, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeBigSession } from '../../test/big-session.ts';
import { openedOf } from './catalog.ts';
import { contextEvent } from './context.ts';
import { SessionPages } from './event-pages.ts';
import { readSessionFile } from './replay.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-resume-page-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const BUDGET = 16 * 1024;
const now = () => new Date(Date.UTC(2026, 1, 1));

/** A read keeping only the newest page must give what a read of every event gives, cut by SessionPages. */
async function expectSameAsWholeRead(file: string): Promise<void> {
  const whole = await readSessionFile(file, { now, upgradeWhenShown: true });
  const kept = await readSessionFile(file, { now, upgradeWhenShown: true, newestPage: BUDGET });
  const expected = new SessionPages(whole, BUDGET).first(openedOf(whole, { resumed: true }));
  const shown = new SessionPages(kept, BUDGET).first(openedOf(kept, { resumed: true }));
  expect(shown).toEqual(expected);
  expect(kept.history).toEqual(whole.events.filter((event) => contextEvent(event) || event.type === 'step_usage'));
  expect(kept.context).toEqual(whole.context);
  expect(kept.repairs).toEqual(whole.repairs);
  expect(kept.eventLines).toEqual(whole.eventLines);
  // What was let go is the rest of the session: no more than a page is held.
  expect(kept.events.length).toBeLessThan(whole.events.length);
}

describe('a read that keeps the newest page', () => {
  it('keeps the page, the context and the repairs a whole read gives, for a long session', async () => {
    await expectSameAsWholeRead(
      await writeBigSession({ root, id: 'long', workspace: '/w', calls: 200, callsPerTurn: 50 }),
    );
  });

  it('does so for a torn tail and for a corrupt middle line before a dangling call', async () => {
    const torn = await writeBigSession({ root, id: 'torn', workspace: '/w', calls: 60, callsPerTurn: 60 });
    const lines = (await readSessionFile(torn)).eventLines;
    await truncate(torn, (lines.offsets.at(-1) ?? 0) + 10);
    await expectSameAsWholeRead(torn);

    const dangling = await writeBigSession({ root, id: 'dangling', workspace: '/w', calls: 80, callsPerTurn: 80 });
    const started = {
      kind: 'event',
      event: { type: 'tool_started', call_id: 'late', name: 'exec', args: { command: 'sleep 9' }, seq: 100_000 },
    };
    await appendFile(dangling, `not json at all\n${JSON.stringify(started)}\n`);
    await expectSameAsWholeRead(dangling);
  });

  it('reads back the events of a page that reaches past the last bytes of the file', async () => {
    const file = await writeBigSession({ root, id: 'reach', workspace: '/w', calls: 40 });
    // A result of 5 pages' bytes written between the newest events: the page's older events are before it.
    const huge = {
      kind: 'tool_content',
      call_id: 'huge',
      name: 'exec',
      content: 'y'.repeat(5 * BUDGET),
      is_error: false,
    };
    const done = {
      kind: 'event',
      event: { type: 'turn_started', turn_id: 'late', model: 'compat:bench', seq: 90_000 },
    };
    await appendFile(file, `${JSON.stringify(huge)}\n${JSON.stringify(done)}\n`);
    await expectSameAsWholeRead(file);
    const kept = await readSessionFile(file, { newestPage: BUDGET });
    expect(kept.events.length).toBeGreaterThan(1);
  });

  it('gives a page alone to an event larger than the page', async () => {
    const file = await writeBigSession({ root, id: 'large', workspace: '/w', calls: 40 });
    const big = {
      kind: 'event',
      event: { type: 'user_message', turn_id: 'tx', text: 'x'.repeat(3 * BUDGET), seq: 90_000 },
    };
    await appendFile(file, `${JSON.stringify(big)}\n`);
    await expectSameAsWholeRead(file);
    const kept = await readSessionFile(file, { newestPage: BUDGET });
    expect(kept.events.map((event) => event.seq)).toEqual([90_000]);
  });
});
