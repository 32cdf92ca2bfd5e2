import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import { demoStep } from '../main/model/demo.ts';
import { startFixtureServer } from '../main/model/fixture-server.ts';
import type { Direction, Frame } from './acp-frames.ts';
import { aetherEnv, aetherNodeArgs } from './aether-cli.ts';

// `aether acp` as an editor starts it: a child process whose stdin and stdout carry the protocol,
// with every frame both ways recorded (for the schema check) on its way through.

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface AcpAgentProcess {
  child: ChildProcess;
  /** Every frame so far, both ways, in order. */
  frames: Frame[];
  /** The stream an SDK client connects over. */
  stream: acp.Stream;
  /** Writes raw bytes to the agent's stdin (a malformed frame, say), recorded as they are. */
  writeRaw(text: string): void;
  stderr(): string;
  exited: Promise<number | null>;
}

export function startAcpAgent(args: string[], env: Record<string, string> = {}): AcpAgentProcess {
  const child = spawn(process.execPath, [...aetherNodeArgs('acp'), 'acp', ...args], {
    cwd: repo,
    env: {
      ...aetherEnv('acp'),
      ...process.env,
      AETHERCODEX_SESSIONS: '',
      FORCE_COLOR: undefined,
      NO_COLOR: undefined,
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const frames: Frame[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const record = (from: Direction) => {
    let pending = '';
    return (chunk: Uint8Array): void => {
      pending += Buffer.from(chunk).toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line.trim() === '') continue;
        try {
          frames.push({ from, frame: JSON.parse(line) as Record<string, unknown> });
        } catch {
          frames.push({ from, frame: { unparsed: line } });
        }
      }
    };
  };
  const fromAgent = record('agent');
  const fromClient = record('client');
  const readable = new ReadableStream<Uint8Array>({
    start(controller) {
      child.stdout!.on('data', (chunk: Buffer) => {
        fromAgent(chunk);
        controller.enqueue(new Uint8Array(chunk));
      });
      child.stdout!.on('end', () => controller.close());
    },
  });
  const writable = new WritableStream<Uint8Array>({
    write(chunk) {
      fromClient(chunk);
      return new Promise<void>((resolve, reject) =>
        child.stdin!.write(chunk, (error) => (error ? reject(error) : resolve())),
      );
    },
    close() {
      child.stdin!.end();
    },
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    frames,
    stream: acp.ndJsonStream(writable, readable),
    writeRaw: (text) => {
      fromClient(new TextEncoder().encode(text));
      child.stdin!.write(text);
    },
    stderr: () => stderr,
    exited,
  };
}

/** The frames the agent sent that are `session/update`s, their updates in order. */
export function updatesOf(frames: readonly Frame[]): acp.SessionUpdate[] {
  return frames
    .filter(({ from, frame }) => from === 'agent' && frame.method === 'session/update')
    .map(({ frame }) => (frame.params as acp.SessionNotification).update);
}

/**
 * The demo model's steps served from the test's own process at full speed (or `chunkDelayMs`
 * apart), over the real Anthropic wire: `model` and `env` are what `aether` needs to reach it.
 */
export async function fastDemoModel(
  chunkDelayMs = 0,
): Promise<{ model: string; env: Record<string, string>; close(): Promise<void> }> {
  const server = await startFixtureServer({ respond: (request) => demoStep(request, chunkDelayMs) });
  return {
    model: 'anthropic:aether-demo',
    env: { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: 'demo' },
    close: () => server.close(),
  };
}
