import path from 'node:path';
import { errorMessage } from '../../protocol/errors.ts';
import type { ToolCheckpoint } from '../../protocol/events.ts';
import type { StatusSink } from '../status/sink.ts';
import { MemoryContentStore, type ToolContentStore } from './content-store.ts';
import {
  approvalQuestion,
  approvalRequest,
  callContext,
  type CallScope,
  type ToolCall,
  type ToolOutcome,
} from './call-context.ts';
import { cardEcho, checkArguments, structuredEchoNames } from './call-echo.ts';
import { callOutcome, contentRecord, outcomeEvent } from './call-outcome.ts';
import { CallStart } from './call-start.ts';
import { gateSubject } from './gate-subject.ts';
import type { CallCheckpoints } from './checkpoints/call-checkpoints.ts';
import type { ReviewedChange, WriteProposal } from './files/reviewed-write.ts';
import type { ApprovalQuestion, GateSubject, PermissionGate } from './permission-gate.ts';
import { spillPolicy, type PostPolicy } from './policies.ts';
import { failure, renderRun, type RunOutcome } from './call-render.ts';
import {
  isAbortError,
  ToolError,
  type AnyTool,
  type ArgsCheck,
  type DescribeContext,
  type PathAccess,
  type ToolDefinition,
} from './tool.ts';
import { NestedWrites } from './nested-writes.ts';
import { SignalFollowers } from './signal-followers.ts';
import { confinePath } from './workspace.ts';

// The one pipeline every call runs through, top-level or nested (ARCHITECTURE.md):
// validate → pre-execution policies (confinement, gate) → execute → render → post-execution
// policies → persist → emit. Failures at any step are error content, never exceptions.

export interface RegistryOptions {
  /** The workspace root, real path. */
  workspace: string;
  /** The session's folder (spill files). */
  sessionDir: string;
  sink: StatusSink;
  gate: PermissionGate;
  store?: ToolContentStore;
  postPolicies?: PostPolicy[];
  /** Extra folders read access may reach besides the workspace (the session's own spill files). */
  readableRoots?: string[];
  /** Checkpoints of the workspace before top-level calls that may change it; none without. */
  checkpoints?: CallCheckpoints;
  /** The largest file write_file and patch_file read whole; default 64 MiB (DEFAULT_MAX_EDIT_BYTES). */
  maxEditBytes?: number;
  now?: () => number;
}

/** What a call that names no path resolves: nothing (shared, never written). */
const NO_PATHS: ReadonlyMap<string, string> = new Map();
const NO_ACCESSES: readonly PathAccess[] = [];

export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();
  /** The top-level calls running now, for cancel(callId): a few at a time, so a list, not a map. */
  private readonly running: CallStart[] = [];
  /** Each call's own controller follows the outer signal (the turn's, a program's). */
  private readonly followers = new SignalFollowers();
  readonly store: ToolContentStore;
  private readonly postPolicies: PostPolicy[];
  private readonly now: () => number;
  private readonly options: RegistryOptions;
  /** uiPreview's name guard: the registered tools that declare a structured echo. */
  private echoGuard = new Set<string>();
  private maxEditBytes: number | undefined;
  /** The checkpoint taken before each running top-level call, for its completion event. */
  private readonly checkpointOf = new Map<string, ToolCheckpoint>();
  private readonly nestedWrites = new NestedWrites();
  /** What a tool's describe() is told: made once, not on every call. */
  private readonly describeContext: DescribeContext;

  constructor(options: RegistryOptions) {
    this.options = options;
    this.describeContext = { workspace: options.workspace };
    this.store = options.store ?? new MemoryContentStore();
    this.postPolicies = options.postPolicies ?? [spillPolicy()];
    // execution_time is whole milliseconds: Date.now is precise enough, and cheaper than performance.now.
    this.now = options.now ?? Date.now;
    this.maxEditBytes = options.maxEditBytes;
  }

  /** What every call's context reaches back into; made again only when a setting in it changes. */
  private scopeMade: CallScope | null = null;

  private get scope(): CallScope {
    if (this.scopeMade) return this.scopeMade;
    const { workspace, sessionDir, sink, gate } = this.options;
    const limit = this.maxEditBytes === undefined ? {} : { maxEditBytes: this.maxEditBytes };
    this.scopeMade = { workspace, sessionDir, sink, gate, ...limit, call: (call) => this.call(call) };
    return this.scopeMade;
  }

  /** A settings change: calls from now on refuse to edit files over `bytes`. */
  setMaxEditBytes(bytes: number): void {
    this.maxEditBytes = bytes;
    this.scopeMade = null;
  }

  /** A turn ended: its signal keeps no listener of the calls that ran under it (signal-followers.ts). */
  releaseTurn(signal: AbortSignal): void {
    this.followers.release(signal);
  }

  /** Cancels one running top-level call (and its nested calls); false when it is not running. */
  cancel(callId: string): boolean {
    const start = this.running.find((each) => each.callId === callId);
    if (!start) return false;
    start.own.abort(new DOMException(`Call ${callId} was cancelled.`, 'AbortError'));
    return true;
  }

  private stopRunning(start: CallStart): void {
    const { running } = this;
    const at = running.lastIndexOf(start);
    if (at < 0) return;
    const last = running.pop()!;
    if (at < running.length) running[at] = last;
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

  /** The checkpoint taken before a call, for its completion, once (the entry is dropped). */
  private takeCheckpoint(callId: string): ToolCheckpoint | undefined {
    if (this.checkpointOf.size === 0) return undefined;
    const checkpoint = this.checkpointOf.get(callId);
    this.checkpointOf.delete(callId);
    return checkpoint;
  }

  async call(call: ToolCall): Promise<ToolOutcome> {
    // The arguments are checked once a call; the card, the question and the run share the verdict.
    const tool = this.get(call.name);
    const checked = tool ? checkArguments(tool, call.args) : undefined;
    const start = new CallStart(this.options.sink, this.describeContext, call, tool, checked);
    // The session log holds tool_started before the call runs; other sinks hear of it while it runs.
    if (this.options.store) await start.announce();
    // Each top-level call can be cancelled on its own (Stop on its card) as well as with its turn.
    if (!call.parent) this.running.push(start);
    let ran: RunOutcome;
    try {
      ran = await this.run(call, start.own, tool, checked, start);
    } finally {
      if (!call.parent) this.stopRunning(start);
      start.stopFollowing();
    }
    const settled = this.settle(call, ran, start);
    return settled instanceof Promise ? await settled : settled;
  }

  /**
   * Hands a finished call on: its content to the store, its completion to the sink. The outcome at
   * once when both took them at once (memory, a recorder), else when both are done.
   */
  private settle(call: ToolCall, ran: RunOutcome, start: CallStart): ToolOutcome | Promise<ToolOutcome> {
    start.announce();
    // From the moment it began to execute, or to wait for its question or checkpoint; a call refused
    // at once (an unknown tool, invalid arguments) took no time.
    const executionTime = ran.executedAt === undefined ? 0 : Math.max(0, Math.round(this.now() - ran.executedAt));
    const outcome = callOutcome(call, ran, executionTime);
    // The content and the completion are handed over in the same synchronous stretch, so the
    // session log writes them together under one fsync: a call is never durable half-completed.
    const stored = this.store.put(contentRecord(call, outcome), outcome.images);
    const echo = cardEcho(call.name, ran.echo, outcome.content, this.echoGuard);
    const checkpoint = call.parent ? undefined : this.takeCheckpoint(call.callId);
    const completed = this.options.sink.emit(outcomeEvent(call, outcome, echo, start, checkpoint));
    const { pending } = start;
    if (call.parent && (stored || pending || completed)) {
      // The program hears back at once; its own completion waits for these (nested-writes.ts).
      this.nestedWrites.hold(call.parent, Promise.all([stored, pending, completed]));
      return outcome;
    }
    const nested = this.nestedWrites.take(call.callId);
    if (stored || pending || completed || nested)
      return Promise.all([stored, pending, completed, ...(nested ?? [])]).then(() => outcome);
    return outcome;
  }

  /**
   * Checks a call and runs it. A call that names no path, that the gate's rules admit and that takes
   * no checkpoint has nothing to wait for before it starts: it goes to execute in this stretch.
   */
  private run(
    call: ToolCall,
    own: AbortController,
    tool: ToolDefinition<unknown, unknown> | undefined,
    checked: ArgsCheck<unknown> | undefined,
    start: CallStart,
  ): RunOutcome | Promise<RunOutcome> {
    if (!tool || !checked) {
      const known = [...this.tools.keys()].join(', ');
      return failure(`Unknown tool "${call.name}". Available tools: ${known}.`);
    }
    if (!checked.ok) return failure(`Invalid arguments for ${tool.name}: ${checked.problems}.`);
    const args = checked.args;
    if (start.stopped || own.signal.aborted) return failure(`Cancelled: ${tool.name} was stopped before it started.`);
    const accesses = tool.paths?.(args) ?? NO_ACCESSES;
    if (accesses.length > 0 || (this.options.checkpoints && !call.parent))
      return this.guarded(call, own, tool, args, accesses, start);
    const { gate } = this.options;
    // Most calls: the mode admits their kind and the tool has no policy of its own, so no subject is made.
    if (tool.policy?.() || !gate.admitsKind(tool.kind)) {
      // With no path, the subject is made at once (gate-subject.ts).
      const subject = gateSubject(tool, args, this.options.workspace, NO_PATHS, accesses) as GateSubject;
      if (!gate.admits(tool.kind, subject)) return this.guarded(call, own, tool, args, accesses, start);
    }
    return this.execute(call, own, tool, args, NO_PATHS, start);
  }

  /** A call with something to wait for first: its paths' confinement, the gate's question, its checkpoint. */
  private async guarded(
    call: ToolCall,
    own: AbortController,
    tool: ToolDefinition<unknown, unknown>,
    args: unknown,
    accesses: readonly PathAccess[],
    start: CallStart,
  ): Promise<RunOutcome> {
    const { signal } = own;
    // Its time runs from here: a question's wait, a checkpoint, a refusal.
    const began = this.now();
    const refused = (content: string): RunOutcome => ({ content, isError: true, executedAt: began });
    // Pre-execution: confinement, then the permission gate. A refusal never runs the tool.
    const resolved = new Map<string, string>();
    try {
      for (const access of accesses) {
        resolved.set(access.path, await this.confine(access.path, access.access));
      }
    } catch (error) {
      return refused(errorMessage(error));
    }
    const subjectOrPending = gateSubject(tool, args, this.options.workspace, resolved, accesses);
    const subject = subjectOrPending instanceof Promise ? await subjectOrPending : subjectOrPending;
    // A call the rules admit asks nothing: its question is never built. One that asks follows the
    // turn's Stop before its question goes out, so a Stop withdraws the question.
    let reviewed: ReviewedChange | undefined;
    if (!this.options.gate.admits(tool.kind, subject)) {
      const decision = await this.ask(call, own, tool, args, resolved, subject, start);
      if (!decision.allowed) return refused(decision.reason);
      reviewed = decision.reviewed;
    }
    // A call that may change the workspace runs only after its checkpoint is stored.
    if (!call.parent && this.options.checkpoints) {
      try {
        const checkpoint = await this.options.checkpoints.before({
          callId: call.callId,
          name: tool.name,
          kind: tool.kind,
        });
        if (checkpoint) this.checkpointOf.set(call.callId, checkpoint);
      } catch (error) {
        return refused(`${tool.name} did not run: ${errorMessage(error)}`);
      }
    }
    // A Stop while the gate or the checkpoint was busy: the tool never starts.
    if (start.stopped || signal.aborted) return refused(`Cancelled: ${tool.name} was stopped before it started.`);

    const checkpoint = call.parent ? undefined : this.checkpointOf.get(call.callId);
    if (!checkpoint || !this.options.checkpoints?.after)
      return await this.execute(call, own, tool, args, resolved, start, reviewed);
    try {
      return await this.execute(call, own, tool, args, resolved, start, reviewed);
    } finally {
      await this.options.checkpoints.after({ callId: call.callId, name: tool.name, checkpoint });
    }
  }

  /** The gate's question for a call its rules do not simply admit (asked, or refused by a rule). */
  private async ask(
    call: ToolCall,
    own: AbortController,
    tool: ToolDefinition<unknown, unknown>,
    args: unknown,
    resolved: ReadonlyMap<string, string>,
    subject: GateSubject,
    start: CallStart,
  ): Promise<{ allowed: true; reviewed?: ReviewedChange } | { allowed: false; reason: string }> {
    const { signal } = own;
    const request = approvalRequest(tool, args, start.describe());
    // A write's hunks are computed only if the question goes to someone who can review them.
    const proposed: { value: WriteProposal | null } = { value: null };
    const propose = tool.proposeReview?.bind(tool);
    const question: ApprovalQuestion = {
      ...approvalQuestion(call, tool, request, signal),
      // The card is announced, and follows the turn's Stop, before the question goes out.
      onApprovalWait: () => {
        start.announce();
        start.follow(this.followers);
        return call.onApprovalWait?.() ?? (() => undefined);
      },
      ...(propose
        ? {
            review: async () => {
              const context = callContext(this.scope, call, tool, resolved, signal, undefined, start);
              proposed.value = await propose(args, context).catch(() => null);
              return proposed.value?.review ?? null;
            },
          }
        : {}),
    };
    const decision = await this.options.gate.check(tool.kind, question, subject);
    if (!decision.allowed) return decision;
    return decision.review && proposed.value
      ? { allowed: true, reviewed: { proposal: proposed.value, choice: decision.review } }
      : { allowed: true };
  }

  /** Runs an admitted call and renders its result through the post-execution policies. */
  private async execute(
    call: ToolCall,
    own: AbortController,
    tool: ToolDefinition<unknown, unknown>,
    args: unknown,
    resolved: ReadonlyMap<string, string>,
    start: CallStart,
    reviewed?: ReviewedChange,
  ): Promise<RunOutcome> {
    const { signal } = own;
    const executedAt = this.now();
    let result: unknown;
    let running: Promise<unknown>;
    try {
      running = tool.execute(args, callContext(this.scope, call, tool, resolved, signal, reviewed, start));
    } catch (error) {
      running = Promise.reject(error);
    }
    // The tool has started (an MCP request is on its way): the card's start and the link to the
    // turn's Stop are made while it works. Nothing of the call reached the sink before this.
    start.announce();
    start.follow(this.followers);
    try {
      result = await running;
    } catch (error) {
      if (isAbortError(error) || (signal.aborted && !(error instanceof ToolError))) {
        return { ...failure(`Cancelled: ${tool.name} was stopped before it finished.`), executedAt };
      }
      return { ...failure(errorMessage(error)), executedAt };
    }

    const { callId } = call;
    const finished = renderRun(
      { tool, result, args, executedAt, callId, sessionDir: this.options.sessionDir },
      this.postPolicies,
    );
    return finished instanceof Promise ? await finished : finished;
  }

  private async confine(requested: string, access: 'read' | 'write'): Promise<string> {
    try {
      return await confinePath(this.options.workspace, requested);
    } catch (error) {
      if (access === 'read') {
        for (const root of this.options.readableRoots ?? []) {
          // A relative path means the workspace's; only an absolute one can name a readable root.
          const inside = await confinePath(root, path.resolve(this.options.workspace, requested)).catch(() => null);
          if (inside) return inside;
        }
      }
      throw error;
    }
  }
}
