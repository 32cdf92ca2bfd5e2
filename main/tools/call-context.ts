import type { CallDescription } from '../../protocol/echo.ts';
import type { ApprovalRequest } from '../../protocol/events.ts';
import type { ReviewedChange } from '../../protocol/review.ts';
import type { SandboxRules } from '../../protocol/sandbox.ts';
import type { ToolProgress } from '../../protocol/tools.ts';
import type { StatusSink } from '../status/sink.ts';
import type { ApprovalQuestion, GateDecision, GateSubject, PermissionGate } from './permission-gate.ts';
import type { DispatchOptions, DispatchResult, ToolContext, ToolDefinition, ToolImage } from './tool.ts';

// What a running tool sees of the pipeline: its progress channel, nested dispatch (Code Mode), its
// confined paths and a way to ask for approval mid-run. Built per call by the registry.

export interface ToolCall {
  callId: string;
  name: string;
  args: unknown;
  signal?: AbortSignal;
  /** Set for a nested Code Mode call: no card of its own, a dispatch event instead. */
  parent?: string;
  turnId?: string;
  /** Told when the call waits for the person's approval, and when that wait ends (DispatchOptions). */
  onApprovalWait?: () => () => void;
}

export interface ToolOutcome {
  callId: string;
  name: string;
  /** Exactly what the model receives. */
  content: string;
  isError: boolean;
  /** The tool's structured result, when it ran and succeeded. */
  result?: unknown;
  /** Images that go with the content (kept in the session's folder). */
  images?: readonly ToolImage[];
  executionTime: number;
}

/** The parts of the registry a call's context reaches back into. */
export interface CallScope {
  workspace: string;
  sessionDir: string;
  sink: StatusSink;
  gate: PermissionGate;
  /** Runs a nested call through the whole pipeline. */
  call: (call: ToolCall) => Promise<ToolOutcome>;
}

/** What the person is asked of a call: its description's title, and the arguments in full unless the tool words them. */
export function approvalRequest(
  tool: ToolDefinition<unknown, unknown>,
  args: unknown,
  described: CallDescription | undefined,
): ApprovalRequest {
  return {
    title: described?.title ?? `Run ${tool.name}`,
    detail: tool.gate.approvalDetail?.(args) ?? described?.detail ?? JSON.stringify(args, null, 2),
    scope: tool.gate.kind,
    ...previewOf(tool, args),
  };
}

function previewOf(
  tool: ToolDefinition<unknown, unknown>,
  args: unknown,
): Pick<ApprovalRequest, 'preview' | 'preview_unavailable'> {
  const preview = tool.gate.previewable?.(args);
  if (!preview) return {};
  return 'unavailable' in preview ? { preview_unavailable: preview.unavailable } : { preview };
}

/** The approval question for one call, as the gate shows it to the person. */
export function approvalQuestion(
  call: ToolCall,
  tool: ToolDefinition<unknown, unknown>,
  request: ApprovalRequest,
  signal: AbortSignal,
): ApprovalQuestion {
  return {
    callId: call.callId,
    ...(call.parent ? { parentCallId: call.parent } : {}),
    name: tool.name,
    request,
    signal,
    ...(call.onApprovalWait ? { onApprovalWait: call.onApprovalWait } : {}),
  };
}

/** What a call's tool gets: made once the call's paths are confined. */
export class CallContext implements ToolContext {
  readonly callId: string;
  readonly workspace: string;
  readonly sessionDir: string;
  readonly signal: AbortSignal;
  /** The sandbox the session's mode runs commands in, as the call starts. */
  readonly sandbox: SandboxRules | null;
  /** Set by the gate's phase when the person chose hunks of the change (a write's review). */
  review?: ReviewedChange;
  private nested = 0;
  /** A program passes the same signal with each of its nested calls: they share one combined signal. */
  private combined: { outer: AbortSignal; signal: AbortSignal } | null = null;

  private readonly scope: CallScope;
  private readonly call: ToolCall;
  private readonly tool: ToolDefinition<unknown, unknown>;
  private readonly resolved: ReadonlyMap<string, string>;

  constructor(
    scope: CallScope,
    call: ToolCall,
    tool: ToolDefinition<unknown, unknown>,
    resolved: ReadonlyMap<string, string>,
    signal: AbortSignal,
  ) {
    this.callId = call.callId;
    this.workspace = scope.workspace;
    this.sessionDir = scope.sessionDir;
    this.sandbox = scope.gate.sandbox;
    this.signal = signal;
    this.scope = scope;
    this.call = call;
    this.tool = tool;
    this.resolved = resolved;
  }

  report(progress: ToolProgress): void {
    // Nested calls own no card, so their progress has nowhere to go.
    if (this.call.parent) return;
    // Live only and cosmetic: a report the panel did not get is replaced by the next one.
    const emitted = this.scope.sink.emit({ type: 'tool_progress', call_id: this.callId, progress });
    Promise.resolve(emitted).catch(() => undefined);
  }

  async dispatch(name: string, args: unknown, options?: DispatchOptions): Promise<DispatchResult> {
    const { call } = this;
    this.nested += 1;
    const nested: ToolCall = {
      callId: `${call.callId}.${this.nested}`,
      name,
      args,
      signal: this.nestedSignal(options?.signal),
      parent: call.callId,
    };
    if (call.turnId) nested.turnId = call.turnId;
    if (options?.onApprovalWait) nested.onApprovalWait = options.onApprovalWait;
    const outcome = await this.scope.call(nested);
    const result: DispatchResult = { callId: outcome.callId, content: outcome.content, isError: outcome.isError };
    if (!outcome.isError) result.result = outcome.result;
    return result;
  }

  resolvedPath(requested: string): string {
    const real = this.resolved.get(requested);
    if (real === undefined)
      throw new Error(`${this.tool.name} used the path ${requested} without declaring it for confinement.`);
    return real;
  }

  async requestApproval(request: ApprovalRequest): Promise<boolean> {
    const { tool } = this;
    const decision = await this.scope.gate.ask(tool.gate.kind, approvalQuestion(this.call, tool, request, this.signal));
    return decision.allowed;
  }

  async permits(subject: GateSubject, request: ApprovalRequest): Promise<GateDecision> {
    const { tool } = this;
    return await this.scope.gate.check(
      tool.gate.kind,
      approvalQuestion(this.call, tool, request, this.signal),
      subject,
    );
  }

  allowRuleFor(subject: GateSubject): string | null {
    return this.scope.gate.namedAllowRule(this.tool.gate.kind, subject);
  }

  private nestedSignal(outer: AbortSignal | undefined): AbortSignal {
    if (!outer) return this.signal;
    if (this.combined?.outer !== outer) this.combined = { outer, signal: AbortSignal.any([this.signal, outer]) };
    return this.combined.signal;
  }
}
