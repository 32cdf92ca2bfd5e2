import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { scanLines } from './line-reader.ts';
import { SESSION_FORMAT_VERSION } from './records.ts';
import { mergeParts, readPart, type ReplayPart } from './replay-part.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-parts-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const at = '2026-01-01T00:00:00.000Z';
let seq = 0;
const event = (value: Record<string, unknown>) =>
  JSON.stringify({ kind: 'event', event: { ...value, seq: ++seq, at } });
const call = (id: string) => ({ call_id: id, name: 'exec', args: { command: `echo ${id}` } });
const reasoning = (text: string) => JSON.stringify({ kind: 'reasoning', blocks: [{ provider: 'anthropic', text }] });
const content = (id: string) =>
  JSON.stringify({ kind: 'tool_content', call_id: id, name: 'exec', content: `out ${id}`, is_error: false });

/**
 * A session whose every line matters to replay: reasoning records before their messages, calls
 * left open, approvals asked in one place and answered far later, a turn left running, a turn
 * and an approval opened again after they were closed, corrupt and blank lines, a second header.
 */
function trickySession(): string {
  seq = 0;
  const lines = [
    JSON.stringify({
      kind: 'header',
      version: SESSION_FORMAT_VERSION,
      id: 's',
      workspace: '/w',
      created_at: at,
      model: 'm',
    }),
    event({ type: 'user_message', turn_id: 't1', text: 'First: do it' }),
    event({ type: 'turn_started', turn_id: 't1', model: 'm' }),
    reasoning('think 1'),
    event({ type: 'assistant_message', turn_id: 't1', text: '', tool_calls: [call('c1'), call('c2')] }),
    event({ type: 'tool_started', turn_id: 't1', ...call('c1') }),
    event({ type: 'tool_approval_requested', call_id: 'c2', name: 'exec', request: { kind: 'exec', command: 'x' } }),
    content('c1'),
    event({
      type: 'tool_completed',
      call_id: 'c1',
      name: 'exec',
      execution_time: 1,
      is_error: false,
      result: { kind: 'text', text: 'out' },
    }),
    'not json {',
    '',
    reasoning('think 2'),
    event({ type: 'assistant_message', turn_id: 't1', text: 'waiting', tool_calls: [] }),
    event({ type: 'tool_approval_resolved', call_id: 'c2', answer: 'allow' }),
    event({ type: 'tool_approval_requested', call_id: 'c2', name: 'exec', request: { kind: 'exec', command: 'x' } }),
    event({ type: 'turn_completed', turn_id: 't1', usage: { input_tokens: 10, output_tokens: 5 } }),
    event({ type: 'turn_started', turn_id: 't1', model: 'm' }),
    event({ type: 'user_message', turn_id: 't2', text: 'Second' }),
    event({ type: 'turn_started', turn_id: 't2', model: 'm' }),
    reasoning('think 3'),
    event({ type: 'assistant_message', turn_id: 't2', text: '', tool_calls: [call('c3')] }),
    event({ type: 'tool_started', turn_id: 't2', ...call('c3') }),
    content('c3'),
    JSON.stringify({
      kind: 'header',
      version: SESSION_FORMAT_VERSION,
      id: 's',
      workspace: '/w',
      created_at: at,
      model: 'm',
    }),
    event({ type: 'tool_approval_requested', call_id: 'c4', name: 'exec', request: { kind: 'exec', command: 'y' } }),
    event({ type: 'turn_completed', turn_id: 't2', usage: { input_tokens: 1, output_tokens: 2 } }),
    reasoning('think 4'),
  ];
  return `${lines.join('\n')}\n`;
}

/** A part as plain data, every collection in its order (the order repairs are written in). */
function plain(part: ReplayPart): unknown {
  const { tally } = part;
  return {
    ...part,
    contents: [...part.contents],
    tally: {
      ...tally,
      calls: [...tally.calls],
      done: [...tally.done].sort(),
      asked: [...tally.asked],
      openTurns: [...tally.openTurns],
      answered: [...tally.answered].sort(),
      ended: [...tally.ended].sort(),
    },
  };
}

async function lineStarts(file: string): Promise<number[]> {
  const starts: number[] = [];
  await scanLines(file, ({ offset }) => {
    starts.push(offset);
  });
  return starts;
}

describe('reading a session in two parts', () => {
  it.each([
    ['every event kept', undefined],
    ['the newest page kept', 300],
  ])('gives what one pass gives, wherever the file is cut (%s)', async (_, newestPage) => {
    const file = path.join(root, 's.jsonl');
    await writeFile(file, trickySession());
    const range = newestPage === undefined ? {} : { newestPage };
    const whole = (await readPart(file, range)).part;
    const starts = await lineStarts(file);
    expect(whole.tally.asked.size + whole.tally.openTurns.size + whole.reasoning.length).toBeGreaterThan(4);
    // Every cut after the header, up to the last line.
    for (const split of starts.slice(1)) {
      const older = (await readPart(file, { ...range, end: split })).part;
      const newer = (await readPart(file, { ...range, start: split })).part;
      expect(plain(mergeParts(older, newer, newestPage)), `cut at byte ${split}`).toEqual(plain(whole));
    }
  });

  it('keeps what a reasoning record at the end of the older part belongs to', async () => {
    const file = path.join(root, 's.jsonl');
    const text = trickySession();
    await writeFile(file, text);
    // Just after the reasoning record of the second turn (the text is ASCII: characters are bytes).
    const split = text.indexOf('\n', text.indexOf('think 3')) + 1;
    const older = (await readPart(file, { end: split })).part;
    const newer = (await readPart(file, { start: split })).part;
    expect(older.trailingReasoning).toEqual([{ provider: 'anthropic', text: 'think 3' }]);
    const merged = mergeParts(older, newer);
    const owner = merged.reasoning.find(([, blocks]) => blocks[0]?.text === 'think 3')?.[0] ?? -1;
    expect(merged.events[owner]).toMatchObject({
      type: 'assistant_message',
      turn_id: 't2',
    } satisfies Partial<StatusEvent>);
  });
});
