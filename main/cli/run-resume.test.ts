import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { aether } from '../../test/aether-cli.ts';
import { useTempWorkspace } from '../../test/temp-workspace.ts';
import { conversationOf } from '../../test/agent-kit.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import type { FixtureScriptInput } from '../model/fixture-script.ts';
import { readSessionFile } from '../session/replay.ts';

// `aether run` going on with a session: `--resume ID` with the model the session records,
// `--continue` for the newest session of the workspace, and the command to go on printed at the end.

const temp = useTempWorkspace('aether-resume-');
// Each test starts the CLI two to five times, a few seconds each on a loaded machine.
const SEVERAL_RUNS_MS = 90_000;
const servers: FixtureServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function fixtureModel(script: FixtureScriptInput): Promise<{ server: FixtureServer; model: string }> {
  const server = await startFixtureServer({ script });
  servers.push(server);
  return { server, model: `compat:${server.baseURL}#fixture` };
}

function sessionId(output: string): string {
  const file = /Session: (.+\.jsonl)/.exec(output)?.[1];
  if (!file) throw new Error(`no session file in: ${output}`);
  return path.basename(file, '.jsonl');
}

/** Runs `aether run` in a workspace with the temp sessions folder; the prompt goes last. */
function run(workspace: string, args: string[], prompt: string, env: Record<string, string> = {}) {
  return aether(['run', '--workspace', workspace, '--sessions', temp.sessionsRoot, ...args, prompt], env);
}

/** The user messages the model was sent in its newest request. */
function userTexts(server: FixtureServer): string[] {
  const body = server.requests.at(-1)?.body ?? {};
  return conversationOf(body).flatMap((entry) => (entry.kind === 'user' ? [entry.text] : []));
}

describe('aether run --resume', () => {
  it(
    'goes on with the model the session records when no --model is given',
    async () => {
      const { server, model } = await fixtureModel({ steps: [{ text: ['First.'] }, { text: ['Second.'] }] });
      const first = await run(temp.workspace, ['--model', model], 'Remember the word teal');
      expect(first.code).toBe(0);
      const id = sessionId(first.stdout);

      const resumed = await aether(['run', '--sessions', temp.sessionsRoot, '--resume', id, 'Which word?']);
      expect(resumed.stderr).toBe('');
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain('Second.');
      expect(sessionId(resumed.stdout)).toBe(id);
      expect(userTexts(server)).toEqual(['Remember the word teal', 'Which word?']);
    },
    SEVERAL_RUNS_MS,
  );

  it(
    'takes --model over the recorded one, and records that model for the next resume',
    async () => {
      const recorded = await fixtureModel({ steps: [{ text: ['First.'] }] });
      const chosen = await fixtureModel({ steps: [{ text: ['From the other model.'] }, { text: ['Still it.'] }] });
      const first = await run(temp.workspace, ['--model', recorded.model], 'Start');
      const id = sessionId(first.stdout);

      const resumed = await run(temp.workspace, ['--resume', id, '--model', chosen.model], 'Go on');
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain('From the other model.');
      expect(recorded.server.requests).toHaveLength(1);
      const replay = await readSessionFile(path.join(temp.sessionsRoot, `${id}.jsonl`));
      const models = replay.events.flatMap((event) => (event.type === 'turn_started' ? [event.model] : []));
      expect(models).toEqual([recorded.model, chosen.model]);

      // The model the session records is its newest turn's.
      const again = await run(temp.workspace, ['--resume', id], 'And again');
      expect(again.stdout).toContain('Still it.');
      expect(recorded.server.requests).toHaveLength(1);
    },
    SEVERAL_RUNS_MS,
  );
});

describe('aether run --continue', () => {
  it(
    "goes on with the workspace's newest session, not another workspace's",
    async () => {
      const other = path.join(temp.root, 'other');
      await mkdir(other);
      const { server, model } = await fixtureModel({
        steps: [{ text: ['One.'] }, { text: ['Two.'] }, { text: ['Elsewhere.'] }, { text: ['Continued.'] }],
      });
      await run(temp.workspace, ['--model', model], 'Older session');
      const newest = sessionId((await run(temp.workspace, ['--model', model], 'Newest session')).stdout);
      await run(other, ['--model', model], 'Another workspace');

      const continued = await run(temp.workspace, ['--continue'], 'And then?');
      expect(continued.stderr).toBe('');
      expect(continued.code).toBe(0);
      expect(continued.stdout).toContain('Continued.');
      expect(sessionId(continued.stdout)).toBe(newest);
      expect(userTexts(server)).toEqual(['Newest session', 'And then?']);
    },
    SEVERAL_RUNS_MS,
  );

  it('exits 2 saying so when the workspace has no session', async () => {
    const ran = await run(temp.workspace, ['--continue', '--model', 'demo'], 'Hello');
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(`No session of ${temp.workspace} in ${temp.sessionsRoot} to continue.`);
  });

  it('refuses --continue together with --resume', async () => {
    const ran = await run(temp.workspace, ['--continue', '--resume', '20260101-000000-abcdef'], 'Hello');
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('Give either --resume ID or --continue, not both.');
  });
});

describe('the end of a run', () => {
  it(
    'prints the command that resumes the session, and that command goes on with it',
    async () => {
      const { model } = await fixtureModel({ steps: [{ text: ['First.'] }, { text: ['Resumed.'] }] });
      const first = await run(temp.workspace, ['--model', model], 'Start');
      const id = sessionId(first.stdout);
      const line = `Resume: aether run --resume ${id} --sessions ${temp.sessionsRoot} "…"\n`;
      expect(first.stdout.endsWith(line)).toBe(true);

      const words = line.slice('Resume: aether '.length, -'"…"\n'.length).trim().split(' ');
      const resumed = await aether([...words, 'Go on']);
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain('Resumed.');
    },
    SEVERAL_RUNS_MS,
  );

  it(
    'prints it dim when colour is on, and on stderr with --json',
    async () => {
      const { model } = await fixtureModel({ steps: [{ text: ['a'] }, { text: ['b'] }] });
      const coloured = await run(temp.workspace, ['--model', model], 'Colour', { FORCE_COLOR: '1' });
      expect(coloured.stdout).toMatch(/\u001b\[2mResume: aether run --resume \S+ --sessions \S+ "…"\u001b\[0m\n$/);

      const json = await run(temp.workspace, ['--json', '--model', model], 'Events');
      expect(json.code).toBe(0);
      expect(json.stdout).not.toContain('Resume:');
      expect(json.stderr).toContain(`Resume: aether run --resume ${sessionId(json.stderr)} --sessions `);
    },
    SEVERAL_RUNS_MS,
  );
});
