import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StatusRecorder } from '../status/sink.ts';
import { newestTurnModel } from './newest-model.ts';
import { SessionLog } from './session-log.ts';
import { SessionSink } from './session-sink.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-newest-model-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Two turns on two models; the second's results mention a turn_started with a third model. */
async function twoTurns(): Promise<string> {
  const log = await SessionLog.create({ root, workspace: '/w', model: 'header-model', id: 'two' });
  const sink = new SessionSink(log, new StatusRecorder());
  for (const [turn, model] of [
    ['t1', 'compat:http://a/v1#first'],
    ['t2', 'compat:http://b/v1#second'],
  ] as const) {
    await sink.emit({ type: 'user_message', turn_id: turn, text: `Turn ${turn}` });
    await sink.emit({ type: 'turn_started', turn_id: turn, model });
    await log.put({
      call_id: `c-${turn}`,
      name: 'read_file',
      content: `${'filler '.repeat(40)}{"type":"turn_started","turn_id":"x","model":"not-this-one"}`,
      is_error: false,
    });
    await sink.emit({
      type: 'turn_completed',
      turn_id: turn,
      usage: { input_tokens: 1, output_tokens: 1 },
      stop_reason: 'stop',
    });
  }
  await log.close();
  return log.file;
}

describe('the model of a session’s newest turn, read from the end', () => {
  it('finds the newest turn_started, across lines longer than a read, past text that only mentions one', async () => {
    const file = await twoTurns();
    expect(await newestTurnModel(file)).toBe('compat:http://b/v1#second');
    for (const chunk of [16, 97, 256]) expect(await newestTurnModel(file, chunk)).toBe('compat:http://b/v1#second');
  });

  it('skips a torn last line that looks like a newer turn', async () => {
    const file = await twoTurns();
    await appendFile(file, '{"kind":"event","event":{"type":"turn_started","turn_id":"t3","model":"torn"');
    expect(await newestTurnModel(file, 64)).toBe('compat:http://b/v1#second');
  });

  it('is null for a session without a turn', async () => {
    const file = path.join(root, 'none.jsonl');
    await writeFile(file, '{"kind":"header","version":1,"id":"none","workspace":"/w","created_at":"x","model":"m"}\n');
    expect(await newestTurnModel(file, 8)).toBeNull();
  });
});
