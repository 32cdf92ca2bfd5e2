import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import type { FixtureScriptInput } from '../model/fixture-script.ts';
import { readSessionFile } from '../session/replay.ts';
import { aether } from '../../test/aether-cli.ts';

// The `aether` command as a person runs it: a child process on the project's Node, a real temp
// workspace and sessions folder, the fixture model over HTTP (as an OpenAI-compatible endpoint).

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

async function fixtureModel(script: FixtureScriptInput): Promise<string> {
  server = await startFixtureServer({ script });
  return `compat:${server.baseURL}#fixture`;
}

function sessionPath(output: string): string {
  const match = /Session: (.+\.jsonl)/.exec(output);
  if (!match?.[1]) throw new Error(`no session path in: ${output}`);
  return match[1];
}

describe('aether run', () => {
  it('prints the streamed answer, how the turn ended and the session file', async () => {
    const model = await fixtureModel({ steps: [{ text: ['Hello ', 'from the fixture.'] }] });
    const ran = await aether(['run', '--workspace', workspace, '--sessions', sessions, '--model', model, 'Say hello']);

    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('Hello from the fixture.\n');
    // A model on this machine costs nothing; the fixture lists no models, so the window is unknown.
    expect(ran.stdout).toContain(
      '— done (stop; 12 tokens in, 6 out · context 18 tokens (window unknown) · $0.00 this turn, $0.00 this session)',
    );
    const file = sessionPath(ran.stdout);
    expect(path.dirname(file)).toBe(sessions);
    const replay = await readSessionFile(file);
    expect(replay.events.map((event) => event.type)).toEqual([
      'user_message',
      'turn_started',
      'step_usage',
      'assistant_message',
      'turn_completed',
    ]);
  });

  it('with --json prints every status event as one JSON line, deltas included', async () => {
    const model = await fixtureModel({
      steps: [{ text: ['a', 'b'] }],
      // Room for the system prompt and the tools' descriptions (about 10 000 tokens) with no compaction.
      models: [{ id: 'fixture', context_window: 64_000 }],
    });
    const ran = await aether([
      'run',
      '--json',
      '--workspace',
      workspace,
      '--sessions',
      sessions,
      '--model',
      model,
      'Letters',
    ]);

    expect(ran.code).toBe(0);
    const events = ran.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; seq: number });
    expect(events.map((event) => event.type)).toEqual([
      'user_message',
      'turn_started',
      'context_estimate',
      'assistant_delta',
      'assistant_delta',
      'step_usage',
      'assistant_message',
      'turn_completed',
    ]);
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Each step's usage comes with the window the server states and the cost so far.
    expect(events[5]).toMatchObject({
      usage: { input_tokens: 12, output_tokens: 6 },
      context_tokens: 18,
      context_window: 64_000,
      cost: 0,
      session_cost: 0,
    });
    expect(ran.stderr).toMatch(/Session: .+\.jsonl/);
  });

  it('refuses a command headless, naming the flags that allow it, and prints one line for the call', async () => {
    const model = await fixtureModel({
      steps: [
        { tool_calls: [{ id: 'x1', name: 'exec', args: { command: 'touch made-by-exec' } }] },
        { text: ['It was refused.'] },
      ],
    });
    const ran = await aether([
      'run',
      '--workspace',
      workspace,
      '--sessions',
      sessions,
      '--model',
      model,
      'Touch a file',
    ]);

    expect(ran.code).toBe(0);
    const line = ran.stdout.split('\n').find((text) => text.startsWith('✗ Run a command'));
    expect(line).toMatch(
      /^✗ Run a command · touch made-by-exec \([\d.]+ m?s\): Denied: .*--allow exec.*--permission-mode auto/,
    );
    await expect(access(path.join(workspace, 'made-by-exec'))).rejects.toThrow();
  });

  it('runs the command once --allow exec is given', async () => {
    const model = await fixtureModel({
      steps: [
        { tool_calls: [{ id: 'x1', name: 'exec', args: { command: 'touch made-by-exec' } }] },
        { text: ['Done.'] },
      ],
    });
    const ran = await aether([
      'run',
      '--allow',
      'exec',
      '--workspace',
      workspace,
      '--sessions',
      sessions,
      '--model',
      model,
      'Touch a file',
    ]);

    expect(ran.code).toBe(0);
    await access(path.join(workspace, 'made-by-exec'));
  });

  it('exits 1 and says why when the model fails', async () => {
    const model = await fixtureModel({
      steps: [{ text: ['cut'], fault: { type: 'http_error', status: 400, message: 'Bad request shape' } }],
    });
    const ran = await aether(['run', '--workspace', workspace, '--sessions', sessions, '--model', model, 'Fail']);

    expect(ran.code).toBe(1);
    expect(ran.stdout).toMatch(/— failed: .*Bad request shape/);
    const replay = await readSessionFile(sessionPath(ran.stdout));
    expect(replay.events.at(-1)?.type).toBe('turn_failed');
  });

  it('exits 2 with the usage line when no model is chosen', async () => {
    const ran = await aether(['run', '--workspace', workspace, '--sessions', sessions, 'Hi']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/Choose a model with --model/);
  });

  it('exits 1 with a message, not a stack trace, when the sessions folder cannot be made', async () => {
    const notAFolder = path.join(sessions, 'a-file');
    await writeFile(notAFolder, '');
    const ran = await aether([
      'run',
      '--workspace',
      workspace,
      '--sessions',
      path.join(notAFolder, 'sessions'),
      '--model',
      'demo',
      'Hi',
    ]);

    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/^Could not start a session in .*a-file.*ENOTDIR.*--sessions DIR/);
    expect(ran.stderr).not.toMatch(/\n\s+at /);
  });

  it('colours the transcript and renders Markdown when FORCE_COLOR asks, and never when NO_COLOR is set', async () => {
    const model = await fixtureModel({
      steps: [
        { tool_calls: [{ id: 'x1', name: 'exec', args: { command: 'touch made-by-exec' } }] },
        { text: ['It was **refused**.\n\n- by the ', 'gate'] },
        { tool_calls: [{ id: 'x2', name: 'exec', args: { command: 'touch again' } }] },
        { text: ['It was **refused** again.'] },
      ],
    });
    const run = (prompt: string, env: Record<string, string>) =>
      aether(['run', '--workspace', workspace, '--sessions', sessions, '--model', model, prompt], env);

    const coloured = await run('Touch a file', { FORCE_COLOR: '1' });
    expect(coloured.code).toBe(0);
    expect(coloured.stdout).toMatch(/^\u001b\[31m✗\u001b\[0m \u001b\[31mRun a command /m);
    expect(coloured.stdout).toContain('It was \u001b[1mrefused\u001b[22m.');
    expect(coloured.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/\* by the gate\n/);

    const plain = await run('Touch again', { FORCE_COLOR: '1', NO_COLOR: '1' });
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain('\u001b');
    expect(plain.stdout).toContain('It was **refused** again.');
  });

  it('plays the built-in demo model without a key', async () => {
    const ran = await aether([
      'run',
      '--workspace',
      workspace,
      '--sessions',
      sessions,
      '--model',
      'demo',
      'Show me around',
    ]);
    expect(ran.code).toBe(0);
    const replay = await readSessionFile(sessionPath(ran.stdout));
    expect(replay.events.at(-1)?.type).toBe('turn_completed');
    expect(replay.header.model).toBe('demo');
  });
});

describe('aether sessions', () => {
  it('lists a session by its first message and deletes it', async () => {
    const model = await fixtureModel({ steps: [{ text: ['ok'] }] });
    const ran = await aether([
      'run',
      '--workspace',
      workspace,
      '--sessions',
      sessions,
      '--model',
      model,
      'Remember this title',
    ]);
    const file = sessionPath(ran.stdout);
    const id = path.basename(file, '.jsonl');

    const listed = await aether(['sessions', '--sessions', sessions]);
    expect(listed.stdout).toMatch(new RegExp(`^${id} .+ Remember this title\\n$`));
    const deleted = await aether(['sessions', '--sessions', sessions, '--delete', id]);
    expect(deleted.code).toBe(0);
    await expect(readFile(file)).rejects.toThrow();
    expect((await aether(['sessions', '--sessions', sessions])).stdout).toMatch(/^No sessions in /);
  });
});
