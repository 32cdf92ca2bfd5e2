import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { EnvKeyStore } from './key-store.ts';
import { modelCatalog } from './models.ts';
import type { PanelEventMessage } from './panel-events.ts';
import { PanelService } from './panel-service.ts';
import { SettingsStore } from './settings-store.ts';
import { testPanelService } from '../../test/panel-service-kit.ts';

// The panel service over the real agent session, session files in a temp folder, and the fixture
// model server over real HTTP (the OpenAI-compatible wire, which needs no key).

let base: string;
let workspace: string;
let server: FixtureServer;
let service: PanelService;
let messages: PanelEventMessage[];

function makeService(env: NodeJS.ProcessEnv = {}): PanelService {
  return new PanelService({
    workspace,
    sessionsRoot: path.join(base, 'sessions'),
    settings: new SettingsStore(path.join(base, 'config'), {
      overrides: { model: `compat:${server.baseURL}#scripted` },
    }),
    keys: new EnvKeyStore(env),
    models: modelCatalog({ adapter: { env } }),
    version: '1.2.3',
    openLink: async (url) => ({ ok: false, error: `not here: ${url}` }),
  });
}

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'aether-panel-'));
  workspace = await realpath(await mkdtemp(path.join(base, 'ws-')));
  server = await startFixtureServer();
  service = makeService();
  messages = [];
  service.events.subscribe((message) => messages.push(message));
});

afterEach(async () => {
  await service.close();
  await server.close();
  await rm(base, { recursive: true, force: true });
});

const statuses = (): StatusEvent[] =>
  messages.flatMap((message) => (message.event === 'status' ? [message.payload] : []));

async function turnEnd(): Promise<StatusEvent> {
  await expect
    .poll(() => statuses().some((event) => event.type === 'turn_completed' || event.type === 'turn_failed'), {
      timeout: 10_000,
    })
    .toBe(true);
  return statuses().find((event) => event.type === 'turn_completed' || event.type === 'turn_failed')!;
}

const echoCall = (command: string) => ({ tool_calls: [{ id: 'call_1', name: 'exec', args: { command } }] });

/** A finished session of another workspace whose one call (call_1) printed "elsewhere". */
async function sessionElsewhere(): Promise<{ elsewhere: string; id: string }> {
  const elsewhere = await realpath(await mkdtemp(path.join(base, 'other-')));
  const other = testPanelService({
    workspace: elsewhere,
    sessionsRoot: path.join(base, 'sessions'),
    settings: new SettingsStore(path.join(base, 'config'), {
      overrides: { model: `compat:${server.baseURL}#scripted` },
    }),
    models: modelCatalog(),
  });
  server.load({ steps: [echoCall('echo elsewhere'), { text: ['Done.'] }] });
  await other.handlers['settings:update']({ permission_mode: 'auto' });
  await other.handlers['turn:send']({ text: 'Work elsewhere' });
  await expect
    .poll(async () => (await other.handlers['tool:content']({ call_id: 'call_1' })).ok, { timeout: 10_000 })
    .toBe(true);
  const id = (await other.handlers['panel:info']()).session!.id;
  await other.close();
  return { elsewhere, id };
}

describe('panel service', () => {
  it('tells the panel where it works before any session exists', async () => {
    const info = await service.handlers['panel:info']();
    expect(info).toMatchObject({ workspace, session: null, version: '1.2.3' });
    expect(info.models).toContain('demo');
  });

  it('names the tools its sessions register, before and after one starts', async () => {
    const before = await service.handlers['panel:info']();
    expect(before.tools).toEqual(
      expect.arrayContaining([
        'read_file',
        'write_file',
        'patch_file',
        'list_dir',
        'search_files',
        'exec',
        'ssh_exec',
        'run_code',
      ]),
    );
    server.load({ steps: [{ text: ['ok'] }] });
    await service.handlers['turn:send']({ text: 'Hello' });
    await turnEnd();
    const after = await service.handlers['panel:info']();
    expect(after.session).not.toBeNull();
    expect(after.tools).toEqual(before.tools);
  });

  it('runs a turn and streams its status events to subscribers', async () => {
    server.load({ steps: [{ text: ['Hello ', 'there.'] }] });
    const sent = await service.handlers['turn:send']({ text: 'Say hello' });
    expect(sent).toMatchObject({ ok: true, value: { queued: false } });
    expect(await turnEnd()).toMatchObject({ type: 'turn_completed' });
    const types = statuses().map((event) => event.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'user_message',
        'turn_started',
        'assistant_delta',
        'assistant_message',
        'turn_completed',
      ]),
    );
    expect(statuses().find((event) => event.type === 'assistant_message')).toMatchObject({ text: 'Hello there.' });
  });

  it('announces the session with its title from the first message', async () => {
    server.load({ steps: [{ text: ['ok'] }] });
    await service.handlers['turn:send']({ text: 'Tidy the README' });
    await turnEnd();
    const changed = messages.filter((message) => message.event === 'session:changed').at(-1);
    expect(changed?.payload).toMatchObject({ title: 'Tidy the README', workspace });
  });

  it('asks before running a command, and a denial keeps it from running', async () => {
    server.load({ steps: [echoCall('touch ran.txt'), { text: ['Understood.'] }] });
    await service.handlers['turn:send']({ text: 'Make a file' });
    await expect.poll(() => statuses().find((event) => event.type === 'tool_approval_requested')).toBeTruthy();
    expect(await service.handlers['tool:approve']({ call_id: 'call_1', answer: 'deny' })).toEqual({
      ok: true,
      value: undefined,
    });
    await turnEnd();
    expect(statuses().find((event) => event.type === 'tool_completed')).toMatchObject({ is_error: true });
    await expect(readFile(path.join(workspace, 'ran.txt'))).rejects.toThrow();
  });

  it('reopens the live session mid-turn (a page reload) without drawing its turn, call or question as ended', async () => {
    server.load({ steps: [echoCall('echo reload'), { text: ['Done.'] }] });
    await service.handlers['turn:send']({ text: 'Echo after a reload' });
    await expect.poll(() => statuses().find((event) => event.type === 'tool_approval_requested')).toBeTruthy();
    const id = (await service.handlers['panel:info']()).session!.id;

    const reopened = await service.handlers['session:open']({ id });
    expect(reopened.ok).toBe(true);
    const types = reopened.ok ? reopened.value.events.map((event) => event.type) : [];
    expect(types).toContain('tool_approval_requested');
    expect(types).not.toContain('tool_approval_resolved');
    expect(types).not.toContain('tool_completed');
    expect(types).not.toContain('turn_failed');

    // The question is still open: answering it runs the command and the turn completes.
    expect(await service.handlers['tool:approve']({ call_id: 'call_1', answer: 'once' })).toEqual({
      ok: true,
      value: undefined,
    });
    expect(await turnEnd()).toMatchObject({ type: 'turn_completed' });
  });

  it('runs the command once allowed, and keeps what the model received by call id', async () => {
    server.load({ steps: [echoCall('echo panel-check'), { text: ['Done.'] }] });
    await service.handlers['turn:send']({ text: 'Echo something' });
    await expect.poll(() => statuses().find((event) => event.type === 'tool_approval_requested')).toBeTruthy();
    await service.handlers['tool:approve']({ call_id: 'call_1', answer: 'once' });
    await turnEnd();
    const content = await service.handlers['tool:content']({ call_id: 'call_1' });
    expect(content).toMatchObject({ ok: true, value: { name: 'exec', is_error: false } });
    expect(content.ok && content.value.content).toContain('panel-check');
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('panel-check');
  });

  it('runs commands without asking in auto mode', async () => {
    await service.handlers['settings:update']({ permission_mode: 'auto' });
    server.load({ steps: [echoCall('echo auto'), { text: ['Done.'] }] });
    await service.handlers['turn:send']({ text: 'Echo' });
    await turnEnd();
    expect(statuses().some((event) => event.type === 'tool_approval_requested')).toBe(false);
    expect(statuses().find((event) => event.type === 'tool_completed')).toMatchObject({ is_error: false });
  });

  it('stops a running turn', async () => {
    server.load({ steps: [{ text: Array.from({ length: 200 }, () => 'word '), chunk_delay_ms: 50 }] });
    await service.handlers['turn:send']({ text: 'Talk for a while' });
    await expect.poll(() => statuses().some((event) => event.type === 'assistant_delta')).toBe(true);
    expect(await service.handlers['turn:stop']()).toEqual({ ok: true, value: undefined });
    expect(await turnEnd()).toMatchObject({ type: 'turn_failed', aborted: true });
  });

  it('cancels one running call: the model gets its cancelled result and the turn goes on', async () => {
    await service.handlers['settings:update']({ permission_mode: 'auto' });
    server.load({ steps: [echoCall('echo started; sleep 30'), { text: ['Moving on.'] }] });
    await service.handlers['turn:send']({ text: 'Wait a while' });
    await expect.poll(() => statuses().some((event) => event.type === 'tool_progress'), { timeout: 10_000 }).toBe(true);
    expect(await service.handlers['tool:cancel']({ call_id: 'call_1' })).toEqual({ ok: true, value: undefined });

    expect(await turnEnd()).toMatchObject({ type: 'turn_completed' });
    expect(statuses().find((event) => event.type === 'tool_completed')).toMatchObject({
      call_id: 'call_1',
      is_error: true,
    });
    expect(statuses().find((event) => event.type === 'assistant_message' && event.text === 'Moving on.')).toBeTruthy();
    expect(server.requests).toHaveLength(2);
    const sent = JSON.stringify(server.requests[1]?.body);
    expect(sent).toContain('Cancelled and stopped');
    expect(sent).toContain('started');
  });

  it('says why a call cannot be cancelled: no session, no turn, or not a running call', async () => {
    expect(await service.handlers['tool:cancel']({ call_id: 'call_1' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('No session is open'),
    });
    server.load({ steps: [{ text: Array.from({ length: 200 }, () => 'word '), chunk_delay_ms: 50 }] });
    await service.handlers['turn:send']({ text: 'Talk for a while' });
    expect(await service.handlers['tool:cancel']({ call_id: 'call_9' })).toMatchObject({
      ok: false,
      error: 'This call is not running any more; it may have finished already.',
    });
    await service.handlers['turn:stop']();
    await turnEnd();
    expect(await service.handlers['tool:cancel']({ call_id: 'call_9' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('No turn is running'),
    });
  });

  it('lists, reopens and deletes sessions', async () => {
    server.load({ steps: [{ text: ['First answer.'] }] });
    await service.handlers['turn:send']({ text: 'First session' });
    await turnEnd();
    const first = (await service.handlers['panel:info']()).session!;
    const fresh = await service.handlers['session:new']();
    expect(fresh.ok && fresh.value.id).not.toBe(first.id);

    const listed = await service.handlers['session:list']();
    expect(listed.ok && listed.value.map((session) => session.id)).toEqual(expect.arrayContaining([first.id]));

    const opened = await service.handlers['session:open']({ id: first.id });
    expect(opened.ok && opened.value.events.find((event) => event.type === 'assistant_message')).toMatchObject({
      text: 'First answer.',
    });
    expect((await service.handlers['panel:info']()).session?.id).toBe(first.id);

    expect(await service.handlers['session:delete']({ id: first.id })).toEqual({ ok: true, value: undefined });
    const after = await service.handlers['session:list']();
    expect(after.ok && after.value.map((session) => session.id)).not.toContain(first.id);
  });

  it('shows a session of another workspace without resuming it there', async () => {
    const { elsewhere, id } = await sessionElsewhere();
    const opened = await service.handlers['session:open']({ id });
    expect(opened).toMatchObject({ ok: true, value: { summary: { workspace: elsewhere } } });
    expect((await service.handlers['panel:info']()).session).toBeNull();
    const content = await service.handlers['tool:content']({ call_id: 'call_1' });
    expect(content.ok && content.value.content).toContain('elsewhere');
  });

  it("answers for the new session's cards once a session starts after viewing one of another workspace", async () => {
    const { id } = await sessionElsewhere();
    await service.handlers['session:open']({ id });

    server.load({ steps: [echoCall('echo here'), { text: ['Done.'] }] });
    await service.handlers['settings:update']({ permission_mode: 'auto' });
    await service.handlers['session:new']();
    await service.handlers['turn:send']({ text: 'Work here' });
    await turnEnd();
    const content = await service.handlers['tool:content']({ call_id: 'call_1' });
    expect(content.ok && content.value.content).toContain('here');
    expect(content.ok && content.value.content).not.toContain('elsewhere');
  });

  it('answers an unknown session with an error value', async () => {
    expect(await service.handlers['session:open']({ id: 'nope' })).toMatchObject({ ok: false });
  });

  it('keeps settings across restarts, without the run-only model', async () => {
    await service.handlers['settings:update']({ theme: 'dark', effort: 'high' });
    const again = testPanelService({
      workspace,
      sessionsRoot: path.join(base, 'sessions'),
      settings: new SettingsStore(path.join(base, 'config')),
      models: modelCatalog(),
    });
    const settings = await again.handlers['settings:get']();
    expect(settings).toMatchObject({ ok: true, value: { theme: 'dark', effort: 'high', model: 'demo' } });
  });

  it('refuses a model id it cannot parse', async () => {
    expect(await service.handlers['settings:update']({ model: 'gpt-5' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('gpt-5'),
    });
  });

  it('says which key is missing when the model needs one', async () => {
    await service.handlers['settings:update']({ model: 'anthropic:claude-sonnet-4-5' });
    const sent = await service.handlers['turn:send']({ text: 'hi' });
    expect(sent).toMatchObject({ ok: false, error: expect.stringContaining('ANTHROPIC_API_KEY') });
  });

  it('reports which keys exist, never the keys', async () => {
    const withKey = makeService({ OPENAI_API_KEY: 'sk-secret' });
    const settings = await withKey.handlers['settings:get']();
    expect(settings).toMatchObject({ ok: true, value: { keys: { openai: true, anthropic: false } } });
    expect(JSON.stringify(settings)).not.toContain('sk-secret');
  });

  it('names the key the selected model lacks, and none for a model that needs none or has one', async () => {
    const missing = async (target: PanelService, model: string) => {
      const updated = await target.handlers['settings:update']({ model });
      return updated.ok ? updated.value.missing_key : updated.error;
    };
    expect(await service.handlers['settings:get']()).toMatchObject({ ok: true, value: { missing_key: null } });
    expect(await missing(service, 'anthropic:claude-sonnet-4-5')).toBe('anthropic');
    expect(await missing(service, 'openai:gpt-5')).toBe('openai');
    expect(await missing(service, 'demo')).toBeNull();
    expect(await missing(service, `compat:${server.baseURL}#scripted`)).toBeNull();
    const withOpenAi = makeService({ OPENAI_API_KEY: 'sk-secret' });
    expect(await missing(withOpenAi, 'openai:gpt-5')).toBeNull();
    expect(await missing(withOpenAi, 'anthropic:claude-sonnet-4-5')).toBe('anthropic');
  });

  it('refuses to store keys from a browser window', async () => {
    expect(await service.handlers['settings:set-key']({ provider: 'openai', key: 'sk' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('OPENAI_API_KEY'),
    });
  });

  it('tells a browser panel that keys come from the environment, so it offers no key field that must fail', async () => {
    expect((await service.handlers['panel:info']()).keys_from_environment).toBe(true);
  });
});
