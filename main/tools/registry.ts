import type { StatusSink } from '../status/sink.ts';
import type { ToolCall, ToolOutcome } from './call-context.ts';
import { structuredEchoNames } from './call-echo.ts';
import type { CallHook } from './call-hooks.ts';
import { MemoryContentStore, type ToolContentStore } from './content-store.ts';
import type { PermissionGate } from './permission-gate.ts';
import { spillPolicy, type PostPolicy } from './policies.ts';
import type { AnyTool, ToolDefinition } from './tool.ts';
import { runToolCall, type CallPipeline } from './tool-call.ts';

// The tools a session offers, and the door every call of theirs goes through (tool-call.ts, where
// a call's phases read in order). What cuts across calls comes in as hooks, installed by whoever
// builds the registry (default-call-hooks.ts).

export interface RegistryOptions {
  /** The workspace root, real path. */
  workspace: string;
  /** The session's folder (spill files). */
  sessionDir: string;
  sink: StatusSink;
  gate: PermissionGate;
  /** Where each call's complete content is kept; the session log writes a call's start before it runs. */
  store?: ToolContentStore;
  postPolicies?: PostPolicy[];
  /** Extra folders read access may reach besides the workspace (the session's own spill files). */
  readableRoots?: string[];
  /** Cross-cutting features, in the order they run (default-call-hooks.ts); none by default. */
  hooks?: CallHook[];
  now?: () => number;
}

export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();
  private readonly running = new Map<string, AbortController>();
  /** uiPreview's name guard: the registered tools that declare a structured echo. */
  private echoGuard: ReadonlySet<string> = new Set<string>();
  private readonly options: RegistryOptions;
  private readonly pipeline: CallPipeline;
  readonly store: ToolContentStore;

  constructor(options: RegistryOptions) {
    this.options = options;
    this.store = options.store ?? new MemoryContentStore();
    this.pipeline = {
      workspace: options.workspace,
      sessionDir: options.sessionDir,
      sink: options.sink,
      gate: options.gate,
      store: this.store,
      startsWritten: options.store !== undefined,
      postPolicies: options.postPolicies ?? [spillPolicy()],
      readableRoots: options.readableRoots ?? [],
      hooks: options.hooks ?? [],
      tools: this.tools as ReadonlyMap<string, ToolDefinition<unknown, unknown>>,
      running: this.running,
      describeContext: { workspace: options.workspace },
      echoGuard: () => this.echoGuard,
      // execution_time is whole milliseconds: Date.now is precise enough.
      now: options.now ?? Date.now,
      call: (call) => this.call(call),
    };
  }

  /** Runs one call through every phase (tool-call.ts); its failures are content, never exceptions. */
  call(call: ToolCall): Promise<ToolOutcome> {
    return runToolCall(this.pipeline, call);
  }

  /** Cancels one running top-level call (and its nested calls); false when it is not running. */
  cancel(callId: string): boolean {
    const own = this.running.get(callId);
    if (!own) return false;
    own.abort(new DOMException(`Call ${callId} was cancelled.`, 'AbortError'));
    return true;
  }

  register(...tools: AnyTool[]): this {
    for (const tool of tools) {
      if (this.tools.has(tool.name)) throw new Error(`A tool named ${tool.name} is already registered.`);
      this.tools.set(tool.name, tool);
    }
    this.echoGuard = structuredEchoNames(this.tools.values());
    return this;
  }

  /** Takes tools out (an MCP server's list changed); calls already running keep theirs. */
  unregister(...names: string[]): this {
    for (const name of names) this.tools.delete(name);
    this.echoGuard = structuredEchoNames(this.tools.values());
    return this;
  }

  get(name: string): ToolDefinition<unknown, unknown> | undefined {
    return this.tools.get(name) as ToolDefinition<unknown, unknown> | undefined;
  }

  list(): ToolDefinition<unknown, unknown>[] {
    return [...this.tools.values()] as ToolDefinition<unknown, unknown>[];
  }

  get workspace(): string {
    return this.options.workspace;
  }

  get gate(): PermissionGate {
    return this.options.gate;
  }
}
