import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { COMPACTION_SYSTEM } from '../agent/compaction-prompt.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { parseFixtureStep, type FixtureStep } from '../model/fixture-script.ts';
import { aether } from '../../test/aether-cli.ts';

// `aether run` compacts by itself too: a compatible server that states a small window, a task that
// outgrows it, and `--json` prints the compaction event among the others.

let workspace: string;
let sessions: string;
let server: FixtureServer | undefined;

beforeEach(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'aether-cli-ws-'));
  sessions = await mkdtemp(path.join(os.tmpdir(), 'aether-cli-sessions-'));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(workspace, { recursive: true, force: true });
  await rm(sessions, { recursive: true, force: true });
});

const words = (seed: number) =>
  Array.from({ length: 600 }, (_, index) => ((seed * 7919 + index * 104_729) % 1_000_003).toString(36)).join(' ');

it('aether run --json compacts a context that outgrows the window the server states, and prints the event', async () => {
  const notes = 10;
  for (let index = 1; index <= notes; index += 1) await writeFile(path.join(workspace, `n${index}.txt`), words(index));
  const steps: FixtureStep[] = [
    ...Array.from({ length: notes }, (_, index) =>
      parseFixtureStep({ tool_calls: [{ name: 'read_file', args: { path: `n${index + 1}.txt` } }] }),
    ),
    parseFixtureStep({ text: ['All notes read.'] }),
  ];
  server = await startFixtureServer({
    // The system prompt and every tool's description take about 10 000 tokens of it.
    script: { steps: [], models: [{ id: 'fixture', context_window: 24_000 }] },
    respond: (request) =>
      JSON.stringify(request.body['messages'] ?? '').includes(COMPACTION_SYSTEM.slice(0, 40))
        ? parseFixtureStep({ text: ['## Goal and open tasks\nRead the notes.'] })
        : steps.shift(),
  });
  const ran = await aether([
    'run',
    '--json',
    '--allow',
    'read',
    '--workspace',
    workspace,
    '--sessions',
    sessions,
    '--model',
    `compat:${server.baseURL}#fixture`,
    'Read n1.txt to n10.txt.',
  ]);
  expect(ran.stderr).toContain('Session:');
  expect(ran.code).toBe(0);
  const events = ran.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; trigger?: string; summary?: string });
  const compactions = events.filter((event) => event.type === 'compaction');
  expect(compactions.length).toBeGreaterThanOrEqual(1);
  expect(compactions[0]).toMatchObject({ trigger: 'auto', summary: '## Goal and open tasks\nRead the notes.' });
  expect(events.at(-1)).toMatchObject({ type: 'turn_completed' });
}, 60_000);
