import type { ApprovalRequest } from '../../protocol/events.ts';
import type { ToolProgress } from '../../protocol/tools.ts';
import type { StatusSink } from '../status/sink.ts';
import type { ReviewedChange } from './files/reviewed-write.ts';
import type { ApprovalQuestion, PermissionGate } from './permission-gate.ts';
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
  /** The largest file write_file and patch_file read whole (settings). */
  maxEditBytes?: number;
  sink: StatusSink;
  gate: PermissionGate;
  /** Runs a nested call through the whole pipeline. */
  call: (call: ToolCall) => Promise<ToolOutcome>;
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

export function callContext(
  scope: CallScope,
  call: ToolCall,
  tool: ToolDefinition<unknown, unknown>,
  resolved: Map<string, string>,
  signal: AbortSignal,
  review?: ReviewedChange,
  /** The call's start, told before anything of the call reaches the sink (its tool_started goes first). */
  start?: { announce(): unknown },
): ToolContext {
  let nested = 0;
  // A program passes the same signal with each of its nested calls: they share one combined signal.
  let combined: { outer: AbortSignal; signal: AbortSignal } | null = null;
  const nestedSignal = (outer: AbortSignal | undefined): AbortSignal => {
    if (!outer) return signal;
    if (combined?.outer !== outer) combined = { outer, signal: AbortSignal.any([signal, outer]) };
    return combined.signal;
  };
  const { sink } = scope;
  return {
    callId: call.callId,
    workspace: scope.workspace,
    sessionDir: scope.sessionDir,
    ...(scope.maxEditBytes === undefined ? {} : { maxEditBytes: scope.maxEditBytes }),
    ...(review ? { review } : {}),
    signal,
    report: (progress: ToolProgress) => {
      // Nested calls own no card, so their progress has nowhere to go.
      if (call.parent) return;
      start?.announce();
      // Live only and cosmetic: a report the panel did not get is replaced by the next one.
      Promise.resolve(sink.emit({ type: 'tool_progress', call_id: call.callId, progress })).catch(() => undefined);
    },
    dispatch: async (name: string, args: unknown, options?: DispatchOptions): Promise<DispatchResult> => {
      nested += 1;
      const outcome = await scope.call({
        callId: `${call.callId}.${nested}`,
        name,
        args,
        signal: nestedSignal(options?.signal),
        parent: call.callId,
        ...(call.turnId ? { turnId: call.turnId } : {}),
        ...(options?.onApprovalWait ? { onApprovalWait: options.onApprovalWait } : {}),
      });
      return {
        callId: outcome.callId,
        content: outcome.content,
        isError: outcome.isError,
        ...(outcome.isError ? {} : { result: outcome.result }),
      };
    },
    resolvedPath: (requested: string) => {
      const real = resolved.get(requested);
      if (real === undefined)
        throw new Error(`${tool.name} used the path ${requested} without declaring it for confinement.`);
      return real;
    },
    requestApproval: async (request: ApprovalRequest) => {
      start?.announce();
      const decision = await scope.gate.ask(tool.kind, approvalQuestion(call, tool, request, signal));
      return decision.allowed;
    },
  };
}
