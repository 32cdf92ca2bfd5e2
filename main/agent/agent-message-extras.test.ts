import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { readSessionImage } from '../session/session-images.ts';
import { StatusRecorder } from '../status/sink.ts';
import { builtinTools } from '../tools/index.ts';
import { ALLOW_ALL } from '../tools/permission-gate.ts';
import { AgentSession } from './agent-session.ts';
import { modelFor } from '../../test/agent-kit.ts';

// What a person's message can carry besides its text — files mentioned with @ and images — reaches
// the model in the message, is recorded, and reaches it the same way after the session is resumed.

let workspace: string;
let root: string;
let server: FixtureServer;
const sessions: AgentSession[] = [];

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);
const SHA = 'e'.repeat(64);

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-ws-')));
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-sessions-'));
  server = await startFixtureServer({ script: { steps: [{ text: ['First.'] }, { text: ['Second.'] }] } });
});

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  await server.close();
  await rm(workspace, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
});

async function open(id?: string): Promise<{ session: AgentSession; recorder: StatusRecorder }> {
  const recorder = new StatusRecorder();
  const options = {
    root,
    workspace,
    model: modelFor('anthropic', server),
    sink: recorder,
    tools: builtinTools(),
    rules: ALLOW_ALL,
  };
  const session = id ? await AgentSession.resume({ ...options, id }) : await AgentSession.start(options);
  sessions.push(session);
  return { session, recorder };
}

const lastBody = () => JSON.stringify(server.requests.at(-1)?.body);

describe('a message with mentions and images', () => {
  it('reads each mention as a card, sends its content and the image, and sends both again after a resume', async () => {
    await writeFile(path.join(workspace, 'notes.md'), 'the mentioned content\n');
    await mkdir(path.join(workspace, 'docs'));
    await writeFile(path.join(workspace, 'docs', 'guide.md'), 'x\n');
    const { session, recorder } = await open();
    await mkdir(path.join(session.log.dir, 'images'));
    await writeFile(path.join(session.log.dir, 'images', SHA), PNG);
    const image = await readSessionImage(session.log.dir, SHA);
    expect(session.send('Look at @notes.md and @docs', ['notes.md', 'docs/'], [image]).ok).toBe(true);
    await session.idle();

    const started = recorder.events.filter((event) => event.type === 'tool_started');
    expect(started.map((event) => event.type === 'tool_started' && event.name)).toEqual(['read_file', 'list_dir']);
    const message = recorder.events.find((event) => event.type === 'user_message');
    expect(message).toMatchObject({ images: [{ sha256: SHA, media_type: 'image/png', bytes: PNG.length }] });
    expect(JSON.stringify(message)).not.toContain(PNG.toString('base64'));
    const first = lastBody();
    expect(first).toContain('the mentioned content');
    expect(first).toContain('guide.md');
    expect(first).toContain(PNG.toString('base64'));

    const id = session.id;
    await session.close();
    sessions.splice(0);
    const resumed = (await open(id)).session;
    expect(resumed.send('And now?').ok).toBe(true);
    await resumed.idle();
    const second = lastBody();
    expect(second).toContain('the mentioned content');
    expect(second).toContain(PNG.toString('base64'));
  });
});
