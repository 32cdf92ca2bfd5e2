import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { freePort } from '../free-port.ts';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessStateEvent } from '../../protocol/events.ts';
import { openAgentSession, type OpenedAgentSession } from '../../main/agent/open-agent-session.ts';
import { startFixtureServer, type FixtureServer } from '../../main/model/fixture-server.ts';
import type { FixtureStepInput as FixtureStep } from '../../main/model/fixture-script.ts';
import { StatusRecorder } from '../../main/status/sink.ts';
import { OWNER_MARKER_VAR, ownerMark } from '../../main/tools/exec/call-processes.ts';
import { readSessionFile } from '../../main/session/replay.ts';
import { ROOT } from '../system-programs.ts';
import { useTempWorkspace } from '../temp-workspace.ts';

// The loop of web work, driven by the fixture model through a real session: start a dev server in
// the background, wait for its ready line, fetch a page with curl, change a file, read the
// server's reload line, stop it. Then nothing the app started is left running (found by its mark).

const temp = useTempWorkspace('aether-procs-');
let server: FixtureServer | null = null;
let opened: OpenedAgentSession | null = null;

afterEach(async () => {
  await opened?.close();
  opened = null;
  await server?.close();
  server = null;
});

/** Live processes this test process started, by the owner mark every command carries. */
function markedProcesses(): number[] {
  const needle = `${OWNER_MARKER_VAR}=${ownerMark()}\0`;
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(needle)) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours.
    }
  }
  return found;
}

const call = (id: string, name: string, args: unknown): FixtureStep => ({ tool_calls: [{ id, name, args }] });

async function runScript(steps: FixtureStep[]): Promise<{ recorder: StatusRecorder; contents: Map<string, string> }> {
  server = await startFixtureServer({ script: { steps: [...steps, { text: ['Done.'] }] } });
  const recorder = new StatusRecorder();
  opened = await openAgentSession({
    workspace: temp.workspace,
    sessionsRoot: temp.sessionsRoot,
    model: `compat:${server.baseURL}#fixture`,
    sink: recorder,
    permissions: { mode: 'auto' },
  });
  expect(opened.session.send('Start the dev server and check the page.').ok).toBe(true);
  expect(await opened.session.idle()).toMatchObject({ status: 'completed' });
  const contents = new Map<string, string>();
  for (const started of recorder.ofType('tool_started')) {
    const content = opened.session.toolContent(started.call_id);
    if (content.ok) contents.set(started.call_id, content.value.content);
  }
  return { recorder, contents };
}

describe('background processes through a session', () => {
  it('runs a Node server in the background: ready line, curl, a reload line after a change, stop, nothing left', async () => {
    const port = await freePort();
    await writeFile(
      path.join(temp.workspace, 'server.mjs'),
      [
        "import { createServer } from 'node:http';",
        "import { readFileSync, watch } from 'node:fs';",
        "const server = createServer((req, res) => res.end('page: ' + readFileSync('message.txt', 'utf8')));",
        `server.listen(${port}, '127.0.0.1', () => console.log('ready on http://127.0.0.1:${port}'));`,
        "watch('.', (event, name) => { if (name === 'message.txt') console.log('reloaded ' + name); });",
      ].join('\n'),
    );
    await writeFile(path.join(temp.workspace, 'message.txt'), 'first');
    const { recorder, contents } = await runScript([
      call('start', 'exec', { command: 'node server.mjs', background: true }),
      call('ready', 'process_output', { id: 'p1', wait_for: 'ready on', timeout_s: 30 }),
      call('list', 'process_list', {}),
      call('curl', 'exec', { command: `curl -s http://127.0.0.1:${port}/` }),
      call('change', 'exec', { command: 'printf second > message.txt' }),
      call('reload', 'process_output', { id: 'p1', wait_for: '^reloaded message\\.txt$', timeout_s: 30 }),
      call('stop', 'process_stop', { id: 'p1' }),
    ]);

    expect(contents.get('start')).toMatch(/^Running in the background as p1 \(pid \d+\)/);
    expect(contents.get('ready')).toContain('Matched: ready on http://127.0.0.1:');
    expect(contents.get('list')).toContain(`listening on :${port}`);
    expect(contents.get('curl')).toContain('page: first');
    expect(contents.get('reload')).toContain('Matched: reloaded message.txt');
    // The read went on from where the last one stopped: the ready line is not read twice.
    expect(contents.get('reload')).not.toContain('ready on');
    expect(contents.get('stop')).toMatch(/^Stopped: p1: stopped by the model/);

    const states = recorder.ofType('process_state').map((event) => event.process.state);
    expect(states).toEqual(['running', 'stopped']);
    const sessionFile = opened!.session.file;
    await opened!.close();
    opened = null;
    expect(markedProcesses()).toEqual([]);

    // The records are durable: the replayed session says how the process ended.
    const replayed = await readSessionFile(sessionFile);
    const last = replayed.events.filter((event): event is ProcessStateEvent => event.type === 'process_state').at(-1);
    expect(last?.process).toMatchObject({
      id: 'p1',
      state: 'stopped',
      end_reason: 'model',
      command: 'node server.mjs',
    });
  });

  it("runs Vite's dev server from node_modules: ready, the page, a page reload after an edit", async () => {
    const port = await freePort();
    await writeFile(path.join(temp.workspace, 'index.html'), '<h1>first page</h1>\n');
    const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
    const { contents } = await runScript([
      call('start', 'exec', {
        command: `node ${vite} --port ${port} --strictPort --host 127.0.0.1 --clearScreen false`,
        background: true,
      }),
      call('ready', 'process_output', { id: 'p1', wait_for: 'ready in', timeout_s: 60 }),
      call('curl', 'exec', { command: `curl -s http://127.0.0.1:${port}/` }),
      call('change', 'exec', { command: "printf '<h1>second page</h1>\\n' > index.html" }),
      call('reload', 'process_output', { id: 'p1', wait_for: 'page reload index\\.html', timeout_s: 60 }),
    ]);
    expect(contents.get('ready')).toMatch(/Matched: .*VITE v\d+.*ready in/);
    expect(contents.get('curl')).toContain('<h1>first page</h1>');
    expect(contents.get('reload')).toMatch(/Matched: .*page reload index\.html/);
    // Left running, and seen by its mark: the session's close stops it.
    expect(markedProcesses().length).toBeGreaterThan(0);
    await opened!.close();
    opened = null;
    expect(markedProcesses()).toEqual([]);
  });
});
