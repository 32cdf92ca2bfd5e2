import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import type { ModelAdapter } from '../model/types.ts';
import { SessionLockedError } from '../session/session-lock.ts';
import { StatusRecorder } from '../status/sink.ts';
import { modelFor } from '../../test/agent-kit.ts';
import { openAgentSession, type OpenedAgentSession } from './open-agent-session.ts';

// The one door the hosts open sessions through: what it assembles, and what it closes.

let workspace: string;
let root: string;
let server: FixtureServer;
const opened: OpenedAgentSession[] = [];

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-door-ws-')));
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-door-sessions-'));
  server = await startFixtureServer({ script: { steps: [{ text: ['Hello from the fixture.'] }] } });
});

afterEach(async () => {
  for (const one of opened.splice(0)) await one.close();
  await server.close();
  await rm(workspace, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
});

async function open(options: Partial<Parameters<typeof openAgentSession>[0]> = {}): Promise<OpenedAgentSession> {
  const one = await openAgentSession({
    workspace,
    sessionsRoot: root,
    model: `compat:${server.baseURL}#fixture`,
    sink: new StatusRecorder(),
    ...options,
  });
  opened.push(one);
  return one;
}

/** Closes it now rather than after the test. */
async function closeNow(one: OpenedAgentSession): Promise<void> {
  opened.splice(opened.indexOf(one), 1);
  await one.close();
}

describe('openAgentSession', () => {
  it('starts a session with the built-in tools and the gate its permissions say, and resumes it the same way', async () => {
    const first = await open({ permissions: { mode: 'read-only', allow: ['exec'] } });
    const names = first.session.registry.list().map((tool) => tool.name);
    expect(names).toContain('read_file');
    expect(names.at(-1)).toBe('run_code');
    expect(first.session.gate.rule('write')).toBe('deny');
    expect(first.session.gate.rule('exec')).toBe('allow');
    expect(first.session.send('Hello').ok).toBe(true);
    expect(await first.session.idle()).toMatchObject({ status: 'completed' });
    const id = first.session.id;
    await closeNow(first);

    const again = await open({ resume: id, permissions: { mode: 'auto' } });
    expect(again.session.id).toBe(id);
    expect(again.session.reopened?.summary.title).toBe('Hello');
    expect(again.session.gate.rule('write')).toBe('allow');
  });

  it('opens a narrower session with its own tools and model and its parent’s gate', async () => {
    const parent = await open();
    const child = await open({
      model: 'demo',
      toolset: parent.toolset,
      tools: (tool) => tool.gate.kind === 'read',
      gate: parent.session.gate,
    });
    expect(child.session.gate).toBe(parent.session.gate);
    expect(child.session.summary().model).toBe('demo');
    const kinds = new Set(child.session.registry.list().map((tool) => tool.gate.kind));
    expect([...kinds]).toEqual(['read']);
    expect(parent.session.registry.list().some((tool) => tool.gate.kind === 'exec')).toBe(true);
  });

  it('leaves an adapter it was given for its host to close', async () => {
    let closed = 0;
    const given: ModelAdapter = modelFor('anthropic', server);
    const own = given.close?.bind(given);
    given.close = async () => {
      closed += 1;
      await own?.();
    };
    const one = await open({ model: given });
    await closeNow(one);
    expect(closed).toBe(0);
  });

  it('says when another session holds the one to resume, and opens nothing', async () => {
    const first = await open();
    await expect(open({ resume: first.session.id })).rejects.toBeInstanceOf(SessionLockedError);
    expect(opened).toHaveLength(1);
  });

  it('sweeps the temp files a killed writer left in the workspace before the session opens', async () => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await once(child, 'exit');
    const leftover = `.notes.md.aether-${child.pid}-0badf00d.tmp`;
    await writeFile(path.join(workspace, leftover), 'half a file');
    await writeFile(path.join(workspace, 'notes.md'), 'kept\n');
    await open();
    expect(await readdir(workspace)).toEqual(['notes.md']);
  });
});
