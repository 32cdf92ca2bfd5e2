import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { FixtureScriptInput } from '../model/fixture-script.ts';
import { startFixtureServer } from '../model/fixture-server.ts';
import { startAcpAgent, updatesOf, type AcpAgentProcess } from '../../test/acp-agent-process.ts';
import { conversationProblems } from '../../test/acp-frames.ts';
import { useTempWorkspace } from '../../test/temp-workspace.ts';

// A client that declares `terminal`, over real stdio with the SDK's own client, whose terminals are
// real processes: `exec` runs its foreground commands there (asked about first, as always), the
// terminal is shown on the call, and the model gets the same result as for a command run by the
// agent — exit code, output, a timeout that kills it, a refusal to start. A command in the
// background, and any command for a client without terminals, runs in the agent as before.

const temp = useTempWorkspace('aether-acp-terminals-');
const running: AcpAgentProcess[] = [];

afterEach(async () => {
  for (const agent of running.splice(0)) {
    agent.child.stdin?.end();
    await agent.exited;
  }
});

interface Terminal {
  child: ChildProcess;
  output: Buffer;
  truncated: boolean;
  exit: Promise<{ exitCode: number | null; signal: string | null }>;
}

/** An editor's terminals as real processes; `asked` records each terminal request and each question. */
function editorTerminals(asked: string[], env: NodeJS.ProcessEnv) {
  const terminals = new Map<string, Terminal>();
  let next = 0;
  const of = (id: string): Terminal => {
    const terminal = terminals.get(id);
    if (!terminal) throw acp.RequestError.invalidParams(undefined, `no terminal ${id}`);
    return terminal;
  };
  return {
    create: (params: acp.CreateTerminalRequest): acp.CreateTerminalResponse => {
      const line = [params.command, ...(params.args ?? [])];
      asked.push(`create ${line.join(' ')}`);
      if (line.join(' ').includes('refuse-me')) throw acp.RequestError.invalidRequest(undefined, 'not in this editor');
      const child = spawn(params.command, params.args ?? [], {
        cwd: params.cwd ?? undefined,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const terminal: Terminal = {
        child,
        output: Buffer.alloc(0),
        truncated: false,
        exit: new Promise((resolve) => child.on('close', (exitCode, signal) => resolve({ exitCode, signal }))),
      };
      const keep = (chunk: Buffer) => {
        terminal.output = Buffer.concat([terminal.output, chunk]);
        const limit = params.outputByteLimit ?? Infinity;
        if (terminal.output.length > limit) {
          terminal.output = terminal.output.subarray(terminal.output.length - limit);
          terminal.truncated = true;
        }
      };
      child.stdout!.on('data', keep);
      child.stderr!.on('data', keep);
      const terminalId = `t${(next += 1)}`;
      terminals.set(terminalId, terminal);
      return { terminalId };
    },
    output: ({ terminalId }: acp.TerminalOutputRequest): acp.TerminalOutputResponse => {
      asked.push('output');
      const terminal = of(terminalId);
      return { output: terminal.output.toString('utf8'), truncated: terminal.truncated };
    },
    wait: async ({ terminalId }: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse> => {
      const exit = await of(terminalId).exit;
      return exit;
    },
    kill: ({ terminalId }: acp.KillTerminalRequest): acp.KillTerminalResponse => {
      asked.push('kill');
      const { child } = of(terminalId);
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
      return {};
    },
    release: ({ terminalId }: acp.ReleaseTerminalRequest): acp.ReleaseTerminalResponse => {
      asked.push('release');
      terminals.delete(terminalId);
      return {};
    },
    running: () => terminals.size,
  };
}

const SECRET = 'sk-test-not-for-commands';

async function startWithTerminals(
  steps: FixtureScriptInput['steps'],
  options: { terminal?: boolean; answer?: 'allow_once' | 'reject_once' } = {},
) {
  const model = await startFixtureServer({ script: { steps } });
  onTestFinished(() => model.close());
  // The editor and the agent it starts share an environment, a provider key in it.
  const env = { ...process.env, OPENAI_API_KEY: SECRET };
  const agent = startAcpAgent(['--model', `compat:${model.baseURL}#fixture`, '--sessions', temp.sessionsRoot], {
    AETHERCODEX_HOME: path.join(temp.root, 'home'),
    OPENAI_API_KEY: SECRET,
  });
  running.push(agent);
  const asked: string[] = [];
  const terminals = editorTerminals(asked, env);
  const client = acp
    .client({ name: 'editor' })
    .onRequest('terminal/create', ({ params }) => terminals.create(params))
    .onRequest('terminal/output', ({ params }) => terminals.output(params))
    .onRequest('terminal/wait_for_exit', ({ params }) => terminals.wait(params))
    .onRequest('terminal/kill', ({ params }) => terminals.kill(params))
    .onRequest('terminal/release', ({ params }) => terminals.release(params))
    .onRequest('session/request_permission', () => {
      asked.push('permission');
      return { outcome: { outcome: 'selected', optionId: options.answer ?? 'allow_once' } };
    })
    .onNotification('session/update', () => undefined)
    .connect(agent.stream).agent;
  await client.request('initialize', {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { terminal: options.terminal ?? true },
  });
  const { sessionId } = await client.request('session/new', { cwd: temp.workspace, mcpServers: [] });
  const prompt = async (text: string) => {
    const done = await client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
    expect(done.stopReason).toBe('end_turn');
  };
  return { agent, model, asked, prompt, terminals, client, sessionId };
}

/** What the model was sent back for the tool call of request `index`, as text. */
const sentAt = (model: { requests: { body: unknown }[] }, index: number) => JSON.stringify(model.requests[index]?.body);

describe("the ACP client's terminals", () => {
  it("runs a command in the editor's terminal after the approval, shows it on the call, and gives the model its result", async () => {
    const { agent, model, asked, prompt, terminals } = await startWithTerminals([
      {
        tool_calls: [
          { id: 'c1', name: 'exec', args: { command: 'echo "key=[$OPENAI_API_KEY]"; pwd; echo oops >&2; exit 3' } },
        ],
      },
      { text: ['It failed with 3.'] },
    ]);
    await prompt('Run it');
    const create = asked.find((entry) => entry.startsWith('create'));
    expect(asked).toEqual(['permission', create, 'output', 'release']);
    expect(create).toContain('-u OPENAI_API_KEY');
    expect(terminals.running()).toBe(0);
    const result = sentAt(model, 1);
    expect(result).toContain('Exit code 3');
    // The provider key the agent holds is unset in the terminal, as for a command run by the agent.
    expect(result).toContain('key=[]');
    expect(result).not.toContain(SECRET);
    expect(result).toContain(temp.workspace);
    expect(result).toContain('oops');
    // The terminal was on the call before it completed.
    const updates = updatesOf(agent.frames).filter(
      (update) => update.sessionUpdate === 'tool_call_update' && update.toolCallId === 'c1',
    );
    const shown = updates.findIndex(
      (update) => update.sessionUpdate === 'tool_call_update' && update.content?.[0]?.type === 'terminal',
    );
    const done = updates.findIndex(
      (update) => update.sessionUpdate === 'tool_call_update' && update.status === 'failed',
    );
    expect(shown).toBeGreaterThanOrEqual(0);
    expect(done).toBeGreaterThan(shown);
    expect(conversationProblems(agent.frames)).toEqual([]);
  });

  it('kills a command at its timeout through the editor and says so; a refused terminal fails to start', async () => {
    const { model, asked, prompt } = await startWithTerminals([
      { tool_calls: [{ name: 'exec', args: { command: 'echo started; sleep 30', timeout_s: 1 } }] },
      { tool_calls: [{ name: 'exec', args: { command: 'echo refuse-me' } }] },
      { text: ['Done.'] },
    ]);
    await prompt('Wait for it');
    expect(sentAt(model, 1)).toContain('Timed out and stopped');
    expect(sentAt(model, 1)).toContain('started');
    expect(asked).toContain('kill');
    expect(sentAt(model, 2)).toContain('Failed to start: The editor could not open a terminal for it');
    expect(sentAt(model, 2)).toContain('not in this editor');
  });

  it("kills the command in the editor's terminal when the turn is cancelled, and releases it", async () => {
    const { asked, client, sessionId, terminals } = await startWithTerminals([
      { tool_calls: [{ name: 'exec', args: { command: 'echo waiting; sleep 30' } }] },
      { text: ['Not reached.'] },
    ]);
    const turn = client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Wait' }] });
    await expect.poll(() => asked.some((entry) => entry.startsWith('create')), { timeout: 15_000 }).toBe(true);
    await client.notify('session/cancel', { sessionId });
    expect((await turn).stopReason).toBe('cancelled');
    await expect.poll(() => asked.includes('release')).toBe(true);
    expect(asked).toContain('kill');
    expect(terminals.running()).toBe(0);
  });

  it('creates no terminal for a command the person denied', async () => {
    const denied = await startWithTerminals(
      [{ tool_calls: [{ name: 'exec', args: { command: 'echo never' } }] }, { text: ['Denied.'] }],
      { answer: 'reject_once' },
    );
    await denied.prompt('Try');
    expect(denied.asked).toEqual(['permission']);
    expect(sentAt(denied.model, 1)).not.toContain('never\\n');
  });

  it('runs commands in the agent for a client without terminals', async () => {
    const local = await startWithTerminals(
      [{ tool_calls: [{ name: 'exec', args: { command: 'echo here-and-now' } }] }, { text: ['Ran.'] }],
      { terminal: false },
    );
    await local.prompt('Run');
    expect(local.asked).toEqual(['permission']);
    expect(sentAt(local.model, 1)).toContain('here-and-now');
  });

  it('runs a background command in the agent, as a process of the session, though the client has terminals', async () => {
    const background = await startWithTerminals([
      { tool_calls: [{ name: 'exec', args: { command: 'echo in-background', background: true } }] },
      { text: ['Started.'] },
    ]);
    await background.prompt('Start');
    expect(background.asked).toEqual(['permission']);
    expect(sentAt(background.model, 1)).toContain('in-background');
  });
});
