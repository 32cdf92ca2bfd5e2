import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { aether, startAether } from '../../test/aether-cli.ts';
import { useTempWorkspace } from '../../test/temp-workspace.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import type { FixtureScriptInput } from '../model/fixture-script.ts';
import { readSessionFile } from '../session/replay.ts';

// `aether run --resume` against a session that another run is writing, or that is damaged.

const temp = useTempWorkspace('aether-guard-');
let server: FixtureServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function fixtureModel(script: FixtureScriptInput): Promise<string> {
  server = await startFixtureServer({ script });
  return `compat:${server.baseURL}#fixture`;
}

async function firstSession(model: string): Promise<{ id: string; file: string }> {
  const ran = await aether([
    'run',
    '--workspace',
    temp.workspace,
    '--sessions',
    temp.sessionsRoot,
    '--model',
    model,
    'Start',
  ]);
  expect(ran.code).toBe(0);
  const file = /Session: (.+\.jsonl)/.exec(ran.stdout)?.[1];
  if (!file) throw new Error(`no session file in: ${ran.stdout}`);
  return { id: path.basename(file, '.jsonl'), file };
}

it('refuses a second run resuming a session that a running turn is writing, naming its pid', async () => {
  const model = await fixtureModel({
    // A turn long enough for a second run to start beside it; Ctrl-C ends it once that is over.
    steps: [
      { text: ['First.'] },
      { text: ['Slowly ', ...Array<string>(60).fill('and '), 'done.'], chunk_delay_ms: 500 },
    ],
  });
  const { id, file } = await firstSession(model);
  const common = [
    'run',
    '--workspace',
    temp.workspace,
    '--sessions',
    temp.sessionsRoot,
    '--model',
    model,
    '--resume',
    id,
  ];

  const first = startAether([...common, 'Go on slowly']);
  await first.printed('Slowly');
  const second = await aether([...common, 'Me too']);
  expect(second.code).toBe(1);
  expect(second.stderr).toContain(
    `Could not reopen session ${id}: Session ${id} is open in another process (pid ${first.child.pid}`,
  );
  expect(second.stderr).toContain('leave out --resume');
  first.child.kill('SIGINT');
  expect((await first.done).code).toBe(130);

  const replay = await readSessionFile(file);
  const seqs = replay.events.map((event) => event.seq);
  expect(new Set(seqs).size).toBe(seqs.length);
  // The first run's turn ended as stopped by its own Ctrl-C, never "Interrupted" by another's repair.
  const failures = replay.events.flatMap((event) => (event.type === 'turn_failed' ? [event.error] : []));
  expect(failures).toHaveLength(1);
  expect(failures[0]).not.toContain('Interrupted');
  expect(replay.events.filter((event) => event.type === 'user_message').map((event) => event.text)).toEqual([
    'Start',
    'Go on slowly',
  ]);
}, 60_000);

it('says how many lines of a resumed session were damaged and where their bytes are', async () => {
  const model = await fixtureModel({ steps: [{ text: ['First.'] }, { text: ['Again.'] }] });
  const { id, file } = await firstSession(model);
  const lines = (await readFile(file, 'utf8')).split('\n').length - 1;
  const torn = '{"kind":"event","event":{"type":"user_mess';
  await appendFile(file, `this is not a record\n${torn}`);

  const ran = await aether([
    'run',
    '--workspace',
    temp.workspace,
    '--sessions',
    temp.sessionsRoot,
    '--model',
    model,
    '--resume',
    id,
    'Next',
  ]);
  expect(ran.code).toBe(0);
  expect(ran.stderr).toContain(
    `Session ${id} is damaged: 1 line could not be read and was skipped (line ${lines + 1}, left as it is in ${file})`,
  );
  expect(ran.stderr).toContain(`its last line was cut off mid-write (${torn.length} bytes, moved to ${file}.corrupt)`);
}, 30_000);
