import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aether, startAether } from '../../test/aether-cli.ts';
import { FIXTURE } from '../../test/mcp-servers.ts';
import { isRunning, killStill, pidIn } from '../../test/processes.ts';
import { makeTempWorkspace, type TempWorkspace } from '../../test/temp-workspace.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import type { FixtureScriptInput } from '../model/fixture-script.ts';

// What `aether tool` and `aether run` start must not outlive them: an MCP server's own children (the
// fixture server starts a sleep in its process group and one in a session of its own, as `npx`
// starts a server), and, after a run was killed outright, what it left is ended by the next run.

let temp: TempWorkspace;
let home: string;
let server: FixtureServer | undefined;
const started: number[] = [];

beforeEach(async () => {
  temp = await makeTempWorkspace('aether-left-running-');
  home = path.join(temp.root, 'home');
  await mkdir(home);
  const args = [FIXTURE, '--grandchild', pidFile('grandchild'), '--daemon', pidFile('daemon')];
  await writeFile(
    path.join(home, 'mcp.json'),
    JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args } } }),
  );
});

afterEach(async () => {
  killStill(started);
  await server?.close();
  server = undefined;
  await rm(temp.root, { recursive: true, force: true });
});

function pidFile(name: string): string {
  return path.join(temp.root, `${name}.pid`);
}

/** The pids the MCP server's children wrote, remembered for cleanup. */
async function serverChildren(): Promise<number[]> {
  const pids = [await pidIn(pidFile('grandchild')), await pidIn(pidFile('daemon'))];
  started.push(...pids);
  return pids;
}

async function fixtureModel(steps: FixtureScriptInput['steps']): Promise<string> {
  server = await startFixtureServer({ script: { steps } });
  return `compat:${server.baseURL}#fixture`;
}

function runArgs(model: string, prompt: string): string[] {
  return ['run', '--workspace', temp.workspace, '--sessions', temp.sessionsRoot, '--model', model, prompt];
}

describe('what an MCP server starts', () => {
  it('is ended when aether tool has called it', async () => {
    const ran = await aether(['tool', 'mcp__fixture__adds-a-tool', '{}', '--workspace', temp.workspace], {
      AETHERCODEX_HOME: home,
    });
    expect(ran.code).toBe(0);

    const pids = await serverChildren();
    expect(pids.filter(isRunning)).toEqual([]);
  }, 60_000);

  it('is ended when aether run ends', async () => {
    const model = await fixtureModel([{ text: ['Done.'] }]);
    const ran = await aether(runArgs(model, 'Hello'), { AETHERCODEX_HOME: home });
    expect(ran.code).toBe(0);

    const pids = await serverChildren();
    expect(pids.filter(isRunning)).toEqual([]);
  }, 60_000);
});

describe('after aether run was killed outright', () => {
  it('the next run ends the command and the MCP server children it left running', async () => {
    const sleepFile = pidFile('sleep');
    const model = await fixtureModel([
      { tool_calls: [{ id: 'x1', name: 'exec', args: { command: `echo $$ > ${sleepFile}; exec sleep 1000` } }] },
      { text: ['Done.'] },
    ]);
    const crashed = startAether(['run', '--allow', 'exec', ...runArgs(model, 'Sleep').slice(1)], {
      AETHERCODEX_HOME: home,
    });
    const left = [...(await serverChildren()), await pidIn(sleepFile)];
    started.push(...left);
    crashed.child.kill('SIGKILL');
    await crashed.done;
    expect(left.filter(isRunning)).toEqual(left);

    const next = await aether(runArgs(model, 'Hello again'), { AETHERCODEX_HOME: home });

    expect(next.code).toBe(0);
    expect(left.filter(isRunning)).toEqual([]);
  }, 60_000);
});
