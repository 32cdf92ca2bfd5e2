import path from 'node:path';
import type { ToolContent } from '../../protocol/api.ts';
import type { CallDescription, EchoShape } from '../../protocol/echo.ts';
import { errorMessage } from '../../protocol/errors.ts';
import type { StatusEvent, ToolStartedEvent } from '../../protocol/events.ts';
import {
  approvalQuestion,
  approvalRequest,
  CallContext,
  type CallScope,
  type ToolCall,
  type ToolOutcome,
} from './call-context.ts';
import { cardEcho, checkArguments, describeChecked, echoKindOf, structuredEcho, type Verdict } from './call-echo.ts';
import type { CallHook, CompletionMarks, Executed, HookedCall } from './call-hooks.ts';
import type { ToolContentStore } from './content-store.ts';
import { gateSubject } from './gate-subject.ts';
import type { PostPolicy } from './policies.ts';
import { isAbortError, ToolError, type DescribeContext, type ToolDefinition, type ToolImage } from './tool.ts';
import { confinePath } from './workspace.ts';

// One tool call, from the model's request to what the model reads and the card shows. Every call
// takes this way, top-level or nested (a run_code program's), and its phases read in order below:
//
//   validate → confine → gate (a question; a write's review) → before execute (hooks: a person's
//   PreToolUse, the checkpoint) → execute → render → after execute (hooks) → post-execution
//   policies (a block, a spill) → settle (the content to the store, the echo and the log)
//
// A failure in any phase is content the model reads, never an exception. What cuts across calls is
// a hook (call-hooks.ts) that whoever builds the registry installs; nothing here knows a tool family.

type Tool = ToolDefinition<unknown, unknown>;

/** What a call reaches of its registry. */
export interface CallPipeline extends CallScope {
  tools: ReadonlyMap<string, Tool>;
  /** The top-level calls running now, by id: Stop on a card aborts one. */
  running: Map<string, AbortController>;
  store: ToolContentStore;
  postPolicies: readonly PostPolicy[];
  /** Folders read access may reach besides the workspace (the session's own spill files). */
  readableRoots: readonly string[];
  hooks: readonly CallHook[];
  /** The store is the session log: a call's start is written before the call runs. */
  startsWritten: boolean;
  describeContext: DescribeContext;
  /** uiPreview's name guard: the registered tools that declare a structured echo. */
  echoGuard(): ReadonlySet<string>;
  now(): number;
}

/** What a call came to, before it settles. */
interface Ran extends Verdict {
  result?: unknown;
  echo?: EchoShape;
  images?: readonly ToolImage[];
  /** When its time began (to execute, or to wait for a question or a checkpoint); absent: refused at once. */
  since?: number;
}

export async function runToolCall(pipeline: CallPipeline, call: ToolCall): Promise<ToolOutcome> {
  const tool = pipeline.tools.get(call.name);
  // Checked and described once: the card, the question and the run share them.
  const checked = tool ? checkArguments(tool, call.args) : undefined;
  const description = tool && checked?.ok ? describeChecked(tool, checked.args, pipeline.describeContext) : undefined;
  // The card: with a store (the session log) its start is written before anything runs; otherwise
  // it is awaited with the completion, so a sink that refuses it still fails the call. A read-only
  // call does not wait for its start's fsync: run again it could do no harm, and a crash before its
  // start is on disk closes it as interrupted all the same (the model's request names it); the log
  // writes the start before its completion.
  const started = call.parent ? undefined : announce(pipeline, call, tool, description);
  if (pipeline.startsWritten && tool?.gate.kind !== 'read') await started;
  // A top-level call can be stopped alone (Stop on its card); every call stops with its turn or program.
  const own = new AbortController();
  const outer = call.signal;
  const stopWithOuter = (): void => own.abort(outer?.reason);
  if (outer?.aborted) stopWithOuter();
  else outer?.addEventListener('abort', stopWithOuter);
  const { signal } = own;
  if (!call.parent) pipeline.running.set(call.callId, own);
  const marks: CompletionMarks = {};
  let ran: Ran;
  try {
    // 1. Validate: an unknown tool or arguments its schema refuses are content the model reads.
    if (!tool || !checked) ran = failure(`Unknown tool "${call.name}". Available tools: ${toolNames(pipeline)}.`);
    else if (!checked.ok) ran = failure(`Invalid arguments for ${tool.name}: ${checked.problems}.`);
    else if (signal.aborted) ran = failure(`Cancelled: ${tool.name} was stopped before it started.`);
    else {
      const hooked = { call, tool, args: checked.args, description } as Hooked;
      ran = await admitAndRun(pipeline, hooked, signal, marks);
    }
  } finally {
    outer?.removeEventListener('abort', stopWithOuter);
    if (pipeline.running.get(call.callId) === own) pipeline.running.delete(call.callId);
  }
  return await settle(pipeline, call, ran, description, started, marks);
}

/** A hook's view of the call, which the phases below fill in. */
type Hooked = { -readonly [K in keyof HookedCall]: HookedCall[K] } & { context: CallContext };

/** Phases 2 to 7, for a call whose arguments are valid. */
async function admitAndRun(pipeline: CallPipeline, hooked: Hooked, signal: AbortSignal, marks: CompletionMarks) {
  const { tool } = hooked;
  // Its time runs from here: confinement, a question's wait, a checkpoint, a refusal.
  const since = pipeline.now();
  const refused = (content: string): Ran => ({ content, isError: true, since });

  // 2. Confine and 3. gate (the person asked when the rules ask, a write's hunks with the question).
  let refusal = await confineAndGate(pipeline, hooked, signal);
  if (refusal !== null) return refused(refusal);

  // 4. Before execute: each hook in the order installed may refuse the call, rewrite its arguments
  //    (checked, confined and judged again) or mark its completion (the checkpoint taken).
  for (const hook of pipeline.hooks) {
    if (!hook.beforeExecute) continue;
    let before;
    try {
      before = await hook.beforeExecute(hooked);
    } catch (error) {
      return refused(`${tool.name} did not run: ${errorMessage(error)}`);
    }
    if (before === undefined) continue;
    if ('deny' in before) return refused(before.deny);
    if ('completion' in before) Object.assign(marks, before.completion);
    if ('args' in before) {
      const rechecked = checkArguments(tool, before.args);
      if (!rechecked.ok)
        return refused(`The ${hook.name} hook gave ${tool.name} invalid arguments: ${rechecked.problems}.`);
      hooked.args = rechecked.args;
      refusal = await confineAndGate(pipeline, hooked, signal);
      if (refusal !== null) return refused(refusal);
    }
  }
  // A Stop while the gate or a hook was busy: the tool never starts.
  if (signal.aborted) return refused(`Cancelled: ${tool.name} was stopped before it started.`);

  // 5. Execute, and render the result as the model reads it.
  const executedAt = pipeline.now();
  const executed = await executeAndRender(tool, hooked.args, hooked.context, signal);

  // 6. After execute, however it ended: the hooks (the checkpoint after it, a person's PostToolUse).
  for (const hook of pipeline.hooks) {
    if (!hook.afterExecute) continue;
    const after = await Promise.resolve(hook.afterExecute(hooked, executed)).catch((error: unknown) => ({
      context: `The ${hook.name} hook failed after ${tool.name} ran: ${errorMessage(error)}`,
    }));
    if (after?.context) executed.content = `${executed.content}\n\n${after.context}`;
  }
  if (!('result' in executed)) return { ...executed, since: executedAt };

  // 7. Post-execution policies, in order (a block, a spill): what the model finally gets.
  let final: Verdict = executed;
  for (const policy of pipeline.postPolicies) {
    try {
      final = await policy({
        callId: hooked.call.callId,
        name: tool.name,
        args: hooked.args,
        content: final.content,
        isError: final.isError,
        sessionDir: pipeline.sessionDir,
        pagesItself: tool.model.pagesItself ?? false,
      });
    } catch (error) {
      return {
        ...failure(`A post-execution policy failed for ${tool.name}: ${errorMessage(error)}`),
        since: executedAt,
      };
    }
  }
  // The card's echo is the tool's own, unless a policy replaced what the tool rendered.
  const { result } = executed;
  const ran: Ran = { content: final.content, isError: final.isError, result, since: executedAt };
  const echo = structuredEcho(tool, { result, args: hooked.args }, executed, final);
  if (echo !== undefined) ran.echo = echo;
  const images = tool.model.images?.(result);
  if (images?.length) ran.images = images;
  return ran;
}

/**
 * 2. Confine: each path the call names, resolved inside the workspace (or a readable root), links
 * followed. 3. Gate: the rules, protected paths and the mode judge the call; when they ask, the
 * question goes to the person, with what a hook offers to show (a write's hunks). Null: admitted.
 */
async function confineAndGate(pipeline: CallPipeline, hooked: Hooked, signal: AbortSignal): Promise<string | null> {
  const { call, tool, args } = hooked;
  const accesses = tool.gate.paths?.(args) ?? [];
  const resolved = new Map<string, string>();
  for (const access of accesses) {
    try {
      resolved.set(access.path, await confine(pipeline, access.path, access.access));
    } catch (error) {
      return errorMessage(error);
    }
  }
  hooked.context = new CallContext(pipeline, call, tool, resolved, signal);
  const subject = await gateSubject(tool, args, pipeline.workspace, resolved, accesses);
  if (pipeline.gate.admits(tool.gate.kind, subject)) return null;
  const question = approvalQuestion(call, tool, approvalRequest(tool, args, hooked.description), signal);
  const offer = pipeline.hooks.map((hook) => hook.question?.(hooked)).find((each) => each !== undefined);
  if (offer) question.review = () => offer.review();
  const decision = await pipeline.gate.check(tool.gate.kind, question, subject);
  if (!decision.allowed) return decision.reason;
  const review = decision.review && offer?.chosen(decision.review);
  if (review) hooked.context.review = review;
  return null;
}

/** The tool's execute, then its render: the model's text and whether the result is itself a failure. */
async function executeAndRender(
  tool: Tool,
  args: unknown,
  context: CallContext,
  signal: AbortSignal,
): Promise<Executed> {
  let result: unknown;
  try {
    result = await tool.execute(args, context);
  } catch (error) {
    if (isAbortError(error) || (signal.aborted && !(error instanceof ToolError)))
      return failure(`Cancelled: ${tool.name} was stopped before it finished.`);
    return failure(errorMessage(error));
  }
  try {
    const { model } = tool;
    return { content: model.render(result, args), isError: model.isError?.(result) ?? false, result };
  } catch (error) {
    return failure(`${tool.name} ran, but its result could not be rendered: ${errorMessage(error)}`);
  }
}

/**
 * 8. Settle: the content to the store, the echo and the completion to the sink. Both are handed
 * over in one synchronous stretch, so the session log writes them under one fsync: a call is never
 * durable half-completed. The caller hears the outcome once they are written (or the hooks say; a
 * read-only call's at once).
 */
async function settle(
  pipeline: CallPipeline,
  call: ToolCall,
  ran: Ran,
  description: CallDescription | undefined,
  started: Promise<void> | undefined,
  marks: CompletionMarks,
): Promise<ToolOutcome> {
  const executionTime = ran.since === undefined ? 0 : Math.max(0, Math.round(pipeline.now() - ran.since));
  const outcome: ToolOutcome = {
    callId: call.callId,
    name: call.name,
    content: ran.content,
    isError: ran.isError,
    executionTime,
  };
  if (!ran.isError) outcome.result = ran.result;
  if (ran.images) outcome.images = ran.images;
  const stored = pipeline.store.put(contentRecord(call, outcome), outcome.images);
  const echo = cardEcho(call.name, ran.echo, outcome.content, pipeline.echoGuard());
  const completed = pipeline.sink.emit(completionEvent(call, outcome, echo, description, marks));
  let written: Promise<unknown> = Promise.all([stored, started, completed]);
  // A top-level read-only call's caller does not wait for its records: the log writes them in
  // order under its next fsync, and the panel hears of the completion only then. A crash before
  // that loses only this read, which the reopened session closes as interrupted (docs/durability.md).
  if (!call.parent && pipeline.startsWritten && pipeline.tools.get(call.name)?.gate.kind === 'read') {
    written.catch(() => undefined);
    written = Promise.resolve();
  }
  for (const hook of pipeline.hooks) if (hook.settle) written = hook.settle(call, written);
  await written;
  return outcome;
}

/** tool_started for a top-level call: what the sink does with it, a refusal included. */
function announce(
  pipeline: CallPipeline,
  call: ToolCall,
  tool: Tool | undefined,
  description: CallDescription | undefined,
): Promise<void> | undefined {
  const event: ToolStartedEvent = { type: 'tool_started', call_id: call.callId, name: call.name, args: call.args };
  if (call.turnId) event.turn_id = call.turnId;
  if (description) event.description = description;
  if (tool) event.echo_kind = echoKindOf(tool);
  // A read-only call's caller waits for none of its records: its start may share its completion's
  // write and fsync, which usually follows within the moment the log waits for company.
  const gather = pipeline.startsWritten && tool?.gate.kind === 'read';
  let emitted: Promise<void> | void;
  try {
    emitted = pipeline.sink.emit(event, gather ? { gather } : undefined);
  } catch (error) {
    // A sink that throws at once fails the call as one that fails later does.
    emitted = Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  // Awaited with the completion; until then a refusal is not an unhandled rejection.
  emitted?.catch(() => undefined);
  return emitted ?? undefined;
}

/** The complete content the store keeps for the card's "What the model received"; images by hash. */
function contentRecord(call: ToolCall, outcome: ToolOutcome): ToolContent & { parent_call_id?: string } {
  const record: ToolContent & { parent_call_id?: string } = {
    call_id: call.callId,
    name: call.name,
    content: outcome.content,
    is_error: outcome.isError,
  };
  if (call.parent) record.parent_call_id = call.parent;
  if (outcome.images)
    record.images = outcome.images.map(({ sha256, media_type, bytes }) => ({ sha256, media_type, bytes }));
  return record;
}

/** tool_completed for a top-level call, tool_code_dispatch for a nested one. */
function completionEvent(
  call: ToolCall,
  outcome: ToolOutcome,
  echo: EchoShape,
  description: CallDescription | undefined,
  marks: CompletionMarks,
): StatusEvent {
  const { callId: call_id, name, content, isError: is_error, executionTime: execution_time } = outcome;
  if (call.parent) {
    const dispatched = {
      type: 'tool_code_dispatch',
      parent_call_id: call.parent,
      call_id,
      name,
      args: call.args,
    } as const;
    return { ...dispatched, content, echo, is_error, execution_time, ...(description ? { description } : {}) };
  }
  return { type: 'tool_completed', call_id, name, execution_time, is_error, result: echo, ...marks };
}

/** A path resolved inside the workspace; a read may also reach a readable root (the session's spill files). */
async function confine(pipeline: CallPipeline, requested: string, access: 'read' | 'write'): Promise<string> {
  try {
    return await confinePath(pipeline.workspace, requested);
  } catch (error) {
    if (access === 'read') {
      for (const root of pipeline.readableRoots) {
        // A relative path means the workspace's; only an absolute one can name a readable root.
        const inside = await confinePath(root, path.resolve(pipeline.workspace, requested)).catch(() => null);
        if (inside) return inside;
      }
    }
    throw error;
  }
}

function failure(content: string): { content: string; isError: true } {
  return { content, isError: true };
}

function toolNames(pipeline: CallPipeline): string {
  return [...pipeline.tools.keys()].join(', ');
}
