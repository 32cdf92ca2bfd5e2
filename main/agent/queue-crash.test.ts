import { spawn } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { startFixtureServer } from '../model/fixture-server.ts';
import { StatusRecorder } from '../status/sink.ts';
import { ALLOW_ALL } from '../tools/permission-gate.ts';
import { AgentSession } from './agent-session.ts';
import { conversationOf, modelFor, ToolKit } from '../../test/agent-kit.ts';

// A host killed (SIGKILL) while a turn runs and messages wait behind it loses none of them: the
// reopened session holds them all, and Send now sends each exactly once.

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'queueing-turn.ts');

it('keeps every waiting message of a killed host, held, and sends each once', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'aether-queue-crash-'));
  const workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-queue-crash-ws-')));
  const proc = spawn(process.execPath, [child, root, workspace], { stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  proc.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const saved = await new Promise<{ id: string }>((resolve, reject) => {
    let buffered = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      if (buffered.includes('\n')) resolve(JSON.parse(buffered.split('\n')[0]!) as { id: string });
    });
    proc.once('exit', () => reject(new Error(`The child ended before it queued: ${errors}`)));
  });
  proc.kill('SIGKILL');
  await exited;

  const server = await startFixtureServer({ script: { steps: [{}, {}, {}, {}] } });
  const session = await AgentSession.resume({
    root,
    id: saved.id,
    workspace,
    model: modelFor('anthropic', server),
    sink: new StatusRecorder(),
    tools: new ToolKit().tools,
    rules: ALLOW_ALL,
  });
  try {
    const queue = session.queue();
    expect(queue.held).toBe(true);
    expect(queue.items.map((item) => [item.text, item.mode])).toEqual([
      ['A steer for the running turn', 'next'],
      ['First queued', 'next'],
      ['Second queued', 'next'],
      ['Third queued', 'next'],
    ]);
    expect(session.reopened?.queue).toEqual(queue);
    // Nothing went out by itself.
    expect(server.requests).toHaveLength(0);

    session.sendQueued();
    await session.idle();
    const users = server.requests.map((request) =>
      conversationOf(request.body).filter((entry) => entry.kind === 'user'),
    );
    expect(users.at(-1)!.map((entry) => (entry.kind === 'user' ? entry.text : ''))).toEqual([
      'Start the long thing',
      'A steer for the running turn',
      'First queued',
      'Second queued',
      'Third queued',
    ]);
    expect(server.requests).toHaveLength(4);
    expect(session.queue()).toEqual({ items: [], held: false });
  } finally {
    await session.close();
    await server.close();
    await rm(root, { recursive: true, force: true });
    await rm(workspace, { recursive: true, force: true });
  }
}, 60_000);
