import { appendFile, cp, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { StatusEvent } from '../protocol/events.ts';
import { startFixtureServer, type FixtureServer, type StepSource } from '../main/model/fixture-server.ts';
import type { FixtureScriptInput } from '../main/model/fixture-script.ts';
import { createModelAdapter, type ModelAdapterOptions } from '../main/model/index.ts';
import type { ModelAdapter } from '../main/model/types.ts';
import { StatusRecorder } from '../main/status/sink.ts';
import { ALLOW_ALL, type GateRules, type PermissionGate } from '../main/tools/permission-gate.ts';
import { defineTool, ToolError, type AnyTool } from '../main/tools/tool.ts';
import { AgentSession } from '../main/agent/agent-session.ts';

// What the agent tests share: a fixture model server over real HTTP, a real workspace and
// sessions folder in temp, and small tools of each kind that make ordering observable.

export type Wire = 'anthropic' | 'openai';
export const WIRES: readonly Wire[] = ['anthropic', 'openai'];

export function modelFor(wire: Wire, server: FixtureServer, extra: ModelAdapterOptions = {}): ModelAdapter {
  const id = wire === 'anthropic' ? 'anthropic:claude-fixture' : 'openai:gpt-fixture';
  return createModelAdapter(id, {
    env: {},
    keys: { [wire]: 'test-key' },
    baseURLs: { [wire]: server.baseURL },
    ...extra,
  });
}

export interface Rig {
  server: FixtureServer;
  session: AgentSession;
  recorder: StatusRecorder;
  workspace: string;
  root: string;
  kit: ToolKit;
  close(): Promise<void>;
}

export interface RigOptions {
  script?: FixtureScriptInput;
  /** Computes each step from the request the model was sent, instead of a script. */
  respond?: StepSource;
  /** The session's tools instead of the kit's (the built-in ones, say). */
  tools?: AnyTool[];
  gate?: PermissionGate;
  rules?: GateRules;
  model?: ModelAdapterOptions;
}

export async function startRig(wire: Wire, options: RigOptions): Promise<Rig> {
  const workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-ws-')));
  const root = await mkdtemp(path.join(os.tmpdir(), 'aether-sessions-'));
  const server = await startFixtureServer({
    ...(options.script ? { script: options.script } : {}),
    ...(options.respond ? { respond: options.respond } : {}),
  });
  const recorder = new StatusRecorder();
  const kit = new ToolKit();
  const session = await AgentSession.start({
    root,
    workspace,
    model: modelFor(wire, server, options.model),
    sink: recorder,
    tools: options.tools ?? kit.tools,
    ...(options.gate ? { gate: options.gate } : { rules: options.rules ?? ALLOW_ALL }),
  });
  return {
    server,
    session,
    recorder,
    workspace,
    root,
    kit,
    async close() {
      kit.releaseAll();
      await session.close();
      await server.close();
      await rm(workspace, { recursive: true, force: true });
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Resolves when the recorder has seen an event that matches. */
export function waitForEvent(recorder: StatusRecorder, match: (event: StatusEvent) => boolean): Promise<StatusEvent> {
  return new Promise((resolve) => {
    const found = recorder.events.find(match);
    if (found) return resolve(found);
    const original = recorder.emit.bind(recorder);
    recorder.emit = (event: StatusEvent) => {
      original(event);
      if (match(event)) resolve(event);
    };
  });
}

export async function sessionLines(file: string): Promise<Record<string, unknown>[]> {
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}

function deferred(): Deferred {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * Tools for the loop's tests:
 * - `read_note` (read): returns a file of the workspace whole;
 * - `probe` (read): waits until `together` probes have started, so it can only succeed in parallel
 *   (after `alone_after_ms` it gives up and says it ran alone);
 * - `append_line` (write): appends a line to a file, in call order;
 * - `hold` (exec): runs until the test releases it by name, or until it is stopped.
 */
export class ToolKit {
  readonly order: string[] = [];
  private readonly started = new Map<number, { count: number; all: Deferred }>();
  private readonly held = new Map<string, Deferred>();
  readonly holding = new Map<string, Deferred>();

  /** Resolves once `hold` with this name runs. */
  running(name: string): Promise<void> {
    return this.entry(this.holding, name).promise;
  }

  release(name: string): void {
    this.entry(this.held, name).resolve();
  }

  releaseAll(): void {
    for (const entry of this.held.values()) entry.resolve();
  }

  private entry(map: Map<string, Deferred>, name: string): Deferred {
    let entry = map.get(name);
    if (!entry) {
      entry = deferred();
      map.set(name, entry);
    }
    return entry;
  }

  get tools(): AnyTool[] {
    return [
      defineTool({
        name: 'read_note',
        model: {
          description: 'Returns a file of the workspace, whole.',
          schema: z.object({ path: z.string() }),
          render: (text: string) => text,
        },
        gate: {
          kind: 'read',
          paths: (args) => [{ path: args.path, access: 'read' }],
        },
        execute: async (args, ctx) => readFile(ctx.resolvedPath(args.path), 'utf8'),
      }),
      defineTool({
        name: 'probe',
        model: {
          description: 'Waits for the other probes of its group.',
          schema: z.object({
            name: z.string(),
            together: z.number().int().positive(),
            alone_after_ms: z.number().default(3000),
          }),
          render: (text: string) => text,
        },
        gate: { kind: 'read' },
        execute: async (args) => {
          this.order.push(`start ${args.name}`);
          let group = this.started.get(args.together);
          if (!group) {
            group = { count: 0, all: deferred() };
            this.started.set(args.together, group);
          }
          group.count += 1;
          if (group.count === args.together) group.all.resolve();
          const alone = new Promise<'alone'>((resolve) =>
            setTimeout(() => resolve('alone'), args.alone_after_ms).unref(),
          );
          const how = await Promise.race([group.all.promise.then(() => 'together' as const), alone]);
          this.order.push(`end ${args.name}`);
          return `${args.name} ran ${how}`;
        },
      }),
      defineTool({
        name: 'append_line',
        model: {
          description: 'Appends a line to a file.',
          schema: z.object({ path: z.string(), line: z.string() }),
          render: (text: string) => text,
        },
        gate: {
          kind: 'write',
          paths: (args) => [{ path: args.path, access: 'write' }],
        },
        execute: async (args, ctx) => {
          this.order.push(`write ${args.line}`);
          await appendFile(ctx.resolvedPath(args.path), `${args.line}\n`);
          return `appended ${args.line}`;
        },
      }),
      defineTool({
        name: 'hold',
        model: {
          description: 'Runs until released or stopped.',
          schema: z.object({ name: z.string() }),
          render: (text: string) => text,
        },
        gate: { kind: 'exec' },
        execute: async (args, ctx) => {
          this.entry(this.holding, args.name).resolve();
          const stopped = new Promise<never>((_, reject) => {
            const fail = (): void => reject(new ToolError(`hold ${args.name} saw its signal abort`));
            if (ctx.signal.aborted) fail();
            ctx.signal.addEventListener('abort', fail, { once: true });
          });
          await Promise.race([this.entry(this.held, args.name).promise, stopped]);
          return `released ${args.name}`;
        },
      }),
    ];
  }
}

/** What the model was sent, read back from either wire into one neutral shape. */
export type SentEntry =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string; calls: string[] }
  | { kind: 'tool'; id: string; content: string };

export function conversationOf(body: Record<string, unknown>): SentEntry[] {
  const entries: SentEntry[] = [];
  for (const message of (body['messages'] ?? []) as Record<string, unknown>[]) {
    const role = message['role'];
    const content = message['content'];
    const blocks = (Array.isArray(content) ? content : [{ type: 'text', text: content ?? '' }]) as Record<
      string,
      unknown
    >[];
    if (role === 'user') {
      for (const block of blocks) {
        if (block['type'] === 'text') entries.push({ kind: 'user', text: String(block['text']) });
        if (block['type'] === 'tool_result')
          entries.push({ kind: 'tool', id: String(block['tool_use_id']), content: textOf(block['content']) });
      }
    } else if (role === 'assistant') {
      const text = blocks
        .filter((block) => block['type'] === 'text')
        .map((block) => String(block['text'] ?? ''))
        .join('');
      const anthropicCalls = blocks.filter((block) => block['type'] === 'tool_use').map((block) => String(block['id']));
      const openaiCalls = ((message['tool_calls'] ?? []) as Record<string, unknown>[]).map((call) =>
        String(call['id']),
      );
      entries.push({ kind: 'assistant', text, calls: [...anthropicCalls, ...openaiCalls] });
    } else if (role === 'tool') {
      entries.push({ kind: 'tool', id: String(message['tool_call_id']), content: textOf(content) });
    }
  }
  return entries;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((block: Record<string, unknown>) => String(block['text'] ?? '')).join('');
  return '';
}

/** A copy of the rig's session folder in a new sessions folder (its lock left out), to resume from as after a restart; returns that folder. */
export async function copiedSession(rig: Rig, prefix: string): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), prefix));
  const folder = path.dirname(rig.session.file);
  await cp(folder, path.join(root, path.relative(rig.root, folder)), {
    recursive: true,
    filter: (source) => !source.endsWith('.lock'),
  });
  return root;
}
