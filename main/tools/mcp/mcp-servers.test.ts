import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVERYTHING, FILESYSTEM, FIXTURE, waitFor } from '../../../test/mcp-servers.ts';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { ALLOW_ALL, DEFAULT_RULES, PermissionGate, RefuseApprover } from '../permission-gate.ts';
import { builtinTools } from '../index.ts';
import { ToolRegistry } from '../registry.ts';
import { toolSpecOf } from '../../agent/tool-specs.ts';
import { McpServers, type McpServersOptions } from './mcp-servers.ts';
import { mcpToolName } from './mcp-tool-name.ts';

let root: string;
let workspace: string;
let sessionDir: string;
let home: string;
let servers: McpServers | null = null;

beforeEach(async () => {
  ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-mcp-'));
  home = path.join(root, 'home');
  await mkdir(home);
});

afterEach(async () => {
  await servers?.close();
  servers = null;
  await rm(root, { recursive: true, force: true });
});

async function writeConfig(file: string, mcpServers: Record<string, unknown>): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify({ mcpServers }));
}

async function started(options: Partial<McpServersOptions> = {}): Promise<McpServers> {
  servers = new McpServers({ home, workspace, ...options });
  await servers.start();
  return servers;
}

function registryWith(mcp: McpServers, gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no'))) {
  const sink = new StatusRecorder();
  const registry = new ToolRegistry({ workspace, sessionDir, sink, gate, readableRoots: [sessionDir] });
  registry.register(...mcp.tools());
  return { registry, sink };
}

describe('MCP servers', () => {
  it('names tools mcp__<server>__<tool> with only what providers accept, at most 64 long', () => {
    expect(mcpToolName('every thing', 'get-sum')).toBe('mcp__every_thing__get-sum');
    expect(mcpToolName('fs', 'read.file/v2')).toBe('mcp__fs__read_file_v2');
    const long = mcpToolName('server', 'x'.repeat(100));
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^mcp__server__x+_[0-9a-f]{8}$/);
  });

  it('calls a tool of server-everything over stdio through the registry, with its input schema told to the model', async () => {
    await writeConfig(path.join(home, 'mcp.json'), { everything: { command: process.execPath, args: [EVERYTHING] } });
    const mcp = await started();
    const { registry } = registryWith(mcp);
    const sum = registry.get('mcp__everything__get-sum');
    expect(sum).toBeDefined();
    expect(toolSpecOf(sum!).input_schema).toMatchObject({
      properties: { a: { type: 'number' }, b: { type: 'number' } },
    });
    const outcome = await registry.call({ callId: 'c1', name: 'mcp__everything__get-sum', args: { a: 2, b: 3 } });
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toContain('5');
  });

  it('refuses arguments that fail the input schema before the server sees them', async () => {
    const log = path.join(root, 'fixture.log');
    await writeConfig(path.join(home, 'mcp.json'), {
      fixture: { command: process.execPath, args: [FIXTURE], env: { MCP_FIXTURE_LOG: log } },
    });
    const { registry } = registryWith(await started());
    const outcome = await registry.call({ callId: 'c1', name: 'mcp__fixture__big', args: { mib: 'lots' } });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/Invalid arguments for mcp__fixture__big: .*mib must be integer/);
    await expect(readFile(log, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('sets the tool kind from annotations: read-only tools read, others ask like commands', async () => {
    await writeConfig(path.join(home, 'mcp.json'), { everything: { command: process.execPath, args: [EVERYTHING] } });
    const { registry } = registryWith(await started());
    expect(registry.get('mcp__everything__get-sum')?.gate.kind).toBe('read');
    expect(registry.get('mcp__everything__toggle-simulated-logging')?.gate.kind).toBe('exec');
  });

  it('asks before a non-read-only MCP call, naming the server, the tool and the arguments', async () => {
    await writeConfig(path.join(home, 'mcp.json'), { everything: { command: process.execPath, args: [EVERYTHING] } });
    const asked: string[] = [];
    const gate = new PermissionGate(DEFAULT_RULES, {
      ask: async (question) => {
        asked.push(`${question.request.title}\n${question.request.detail}`);
        return 'deny';
      },
    });
    const { registry } = registryWith(await started(), gate);
    const outcome = await registry.call({
      callId: 'c1',
      name: 'mcp__everything__toggle-simulated-logging',
      args: {},
    });
    expect(outcome.isError).toBe(true);
    expect(asked[0]).toContain('MCP server: everything');
    expect(asked[0]).toContain('Tool: toggle-simulated-logging');
    expect(asked[0]).toContain('Arguments:\n{}');
  });

  it("ends a call that sends no progress within the server's callTimeoutSeconds, saying how to wait longer", async () => {
    const file = path.join(home, 'mcp.json');
    await writeConfig(file, { fixture: { command: process.execPath, args: [FIXTURE], callTimeoutSeconds: 0.5 } });
    const { registry } = registryWith(await started());
    const outcome = await registry.call({ callId: 'c1', name: 'mcp__fixture__never-answers', args: {} });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('sent no progress for 0.5 s');
    expect(outcome.content).toContain(`"callTimeoutSeconds" or "maxCallSeconds" for this server in ${file}`);
  });

  it("falls back to the app's call limits for a server that sets none, and a server's own limit wins", async () => {
    await writeConfig(path.join(home, 'mcp.json'), {
      fixture: { command: process.execPath, args: [FIXTURE] },
      patient: { command: process.execPath, args: [FIXTURE], callTimeoutSeconds: 0.8 },
    });
    const { registry } = registryWith(await started({ callTimeoutMs: 300, maxCallMs: 5_000 }));
    const [app, own] = await Promise.all([
      registry.call({ callId: 'c1', name: 'mcp__fixture__never-answers', args: {} }),
      registry.call({ callId: 'c2', name: 'mcp__patient__never-answers', args: {} }),
    ]);
    expect(app.content).toContain('sent no progress for 0.3 s, or ran past the longest a call may take (5 s)');
    expect(own.content).toContain('sent no progress for 0.8 s, or ran past the longest a call may take (5 s)');
  });

  it('reports progress live and cumulatively, never to the model', async () => {
    await writeConfig(path.join(home, 'mcp.json'), { everything: { command: process.execPath, args: [EVERYTHING] } });
    const { registry, sink } = registryWith(await started());
    const outcome = await registry.call({
      callId: 'c1',
      name: 'mcp__everything__trigger-long-running-operation',
      args: { duration: 0.6, steps: 3 },
    });
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toContain('Long running operation completed');
    expect(outcome.content).not.toContain('1/3');
    // Each report holds everything so far (a throttled one may be folded into the next).
    const reports = sink.ofType('tool_progress').map((event) => event.progress.text);
    expect(reports.length).toBeGreaterThan(0);
    for (const text of reports) expect('1/3\n2/3\n3/3'.startsWith(text) && text.startsWith('1/3')).toBe(true);
  });

  it('cancels a call on Stop: the server receives notifications/cancelled and the model a cancelled result', async () => {
    const log = path.join(root, 'fixture.log');
    await writeConfig(path.join(home, 'mcp.json'), {
      fixture: { command: process.execPath, args: [FIXTURE], env: { MCP_FIXTURE_LOG: log } },
    });
    const { registry } = registryWith(await started());
    const pending = registry.call({ callId: 'c1', name: 'mcp__fixture__never-answers', args: {} });
    await waitFor(async () => (await readFile(log, 'utf8').catch(() => '')).includes('called never-answers'));
    expect(registry.cancel('c1')).toBe(true);
    const outcome = await pending;
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^Cancelled: mcp__fixture__never-answers was stopped/);
    await waitFor(async () => /^cancelled \S+$/m.test(await readFile(log, 'utf8')));
  });

  it('says the server died, with its stderr, when it exits mid-call, and restarts it for the next call', async () => {
    await writeConfig(path.join(home, 'mcp.json'), { fixture: { command: process.execPath, args: [FIXTURE] } });
    const mcp = await started();
    const { registry } = registryWith(mcp);
    const outcome = await registry.call({ callId: 'c1', name: 'mcp__fixture__exits', args: {} });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('The MCP server "fixture" stopped');
    expect(outcome.content).toContain('fixture: giving up on purpose');
    expect(mcp.states()[0]?.status).toBe('failed');
    const soon = await registry.call({ callId: 'c2', name: 'mcp__fixture__big', args: { mib: 1 } });
    expect(soon.content).toMatch(/It is restarted in \d+ s; call again then/);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const later = await registry.call({ callId: 'c3', name: 'mcp__fixture__big', args: { mib: 1 } });
    expect(later.isError).toBe(false);
    expect(mcp.states()[0]?.status).toBe('ready');
  });

  it('spills a large result to a file and gives the model the head, the tail and the path', async () => {
    await writeConfig(path.join(home, 'mcp.json'), { fixture: { command: process.execPath, args: [FIXTURE] } });
    const { registry } = registryWith(await started());
    const outcome = await registry.call({ callId: 'big1', name: 'mcp__fixture__big', args: { mib: 4 } });
    expect(outcome.isError).toBe(false);
    expect(outcome.content.length).toBeLessThan(100_000);
    const spilled = /(\/\S+big1\.txt)/.exec(outcome.content)?.[1];
    expect(spilled).toBeDefined();
    expect((await readFile(spilled!, 'utf8')).length).toBe(4 * 1024 * 1024);
  }, 30_000);

  it('fails a 50 MB result with a clear error naming the limit, and the session goes on', async () => {
    await writeConfig(path.join(home, 'mcp.json'), {
      fixture: { command: process.execPath, args: [FIXTURE] },
      everything: { command: process.execPath, args: [EVERYTHING] },
    });
    const { registry } = registryWith(await started());
    const outcome = await registry.call({ callId: 'big1', name: 'mcp__fixture__big', args: { mib: 50 } });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('a message larger than 8.0 MiB, the most one answer may be');
    const next = await registry.call({ callId: 'c2', name: 'mcp__everything__get-sum', args: { a: 1, b: 1 } });
    expect(next.content).toContain('2');
  }, 60_000);

  it('refuses structured content that breaks the tool’s own output schema', async () => {
    await writeConfig(path.join(home, 'mcp.json'), {
      fixture: { command: process.execPath, args: [FIXTURE, '--lying'] },
    });
    const { registry } = registryWith(await started());
    const outcome = await registry.call({ callId: 'c1', name: 'mcp__fixture__lies', args: {} });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/failed the call to lies: .*(structured content|output schema)/i);
  });

  it('marks a server that sends malformed JSON-RPC, or never answers initialize, failed with its stderr', async () => {
    await writeConfig(path.join(home, 'mcp.json'), {
      garbled: { command: process.execPath, args: [FIXTURE, '--malformed'] },
      silent: {
        command: process.execPath,
        args: ['-e', 'process.stderr.write("silent: warming up\\n"); setInterval(() => {}, 1000)'],
      },
    });
    const mcp = await started({ initializeTimeoutMs: 1500 });
    const states = Object.fromEntries(mcp.states().map((state) => [state.name, state]));
    expect(states['garbled']?.status).toBe('failed');
    expect(states['garbled']?.failure).toContain('did not start');
    expect(states['silent']?.status).toBe('failed');
    expect(states['silent']?.failure).toMatch(/did not start: .*timed out[\s\S]*silent: warming up/i);
  });

  it('gives the card an mcp echo with the image of server-everything’s get-tiny-image, and the model its size', async () => {
    await writeConfig(path.join(home, 'mcp.json'), { everything: { command: process.execPath, args: [EVERYTHING] } });
    const { registry, sink } = registryWith(await started());
    const outcome = await registry.call({ callId: 'i1', name: 'mcp__everything__get-tiny-image', args: {} });
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toMatch(/\[image image\/png, [\d.]+ (bytes|KiB)\]/);
    const echo = sink.ofType('tool_completed')[0]?.result;
    expect(echo).toMatchObject({ kind: 'mcp', server: 'everything', tool: 'get-tiny-image', is_error: false });
    const images = (echo as unknown as { images: { mime_type: string; data: string }[] }).images;
    expect(images[0]?.mime_type).toBe('image/png');
    expect(Buffer.from(images[0]!.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('puts a server’s new tools in the registry after it announces tools/list_changed', async () => {
    let changed = 0;
    await writeConfig(path.join(home, 'mcp.json'), { fixture: { command: process.execPath, args: [FIXTURE] } });
    const mcp = await started({ onToolsChanged: () => (changed += 1) });
    const { registry } = registryWith(mcp);
    expect(registry.get('mcp__fixture__added')).toBeUndefined();
    await registry.call({ callId: 'c1', name: 'mcp__fixture__adds-a-tool', args: {} });
    await waitFor(async () => changed > 0);
    mcp.syncInto(registry);
    const outcome = await registry.call({ callId: 'c2', name: 'mcp__fixture__added', args: {} });
    expect(outcome.content).toBe('the added tool ran');
    expect(registry.list().filter((tool) => tool.name === 'mcp__fixture__big')).toHaveLength(1);
  });

  it('lets run_code programs call MCP tools through the registry, declared from their input schema', async () => {
    await writeConfig(path.join(home, 'mcp.json'), { everything: { command: process.execPath, args: [EVERYTHING] } });
    const mcp = await started();
    const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no'));
    const sink = new StatusRecorder();
    const registry = new ToolRegistry({ workspace, sessionDir, sink, gate, readableRoots: [sessionDir] });
    registry.register(...builtinTools({ more: () => mcp.tools() }), ...mcp.tools());
    expect(registry.get('run_code')?.model.description).toMatch(
      /"mcp__everything__get-sum"\(args: \{[\s\S]*a: number;/,
    );
    const outcome = await registry.call({
      callId: 'code1',
      name: 'run_code',
      args: { code: 'const r = await tools["mcp__everything__get-sum"]({ a: 19, b: 23 }); return JSON.stringify(r);' },
    });
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toContain('42');
    expect(sink.ofType('tool_code_dispatch')[0]).toMatchObject({ name: 'mcp__everything__get-sum', is_error: false });
  }, 30_000);

  it('reads a file through server-filesystem', async () => {
    await writeFile(path.join(workspace, 'note.txt'), 'hello from the workspace\n');
    await writeConfig(path.join(home, 'mcp.json'), {
      fs: { command: process.execPath, args: [FILESYSTEM, workspace] },
    });
    const { registry } = registryWith(await started());
    const outcome = await registry.call({
      callId: 'c1',
      name: 'mcp__fs__read_text_file',
      args: { path: path.join(workspace, 'note.txt') },
    });
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toContain('hello from the workspace');
  });
});
