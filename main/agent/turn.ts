import { errorMessage } from '../../protocol/errors.ts';
import type {
  AssistantMessageEvent,
  RateLimit,
  ReasoningEffort,
  ToolCallRequest,
  Usage,
} from '../../protocol/events.ts';
import {
  ModelStreamError,
  type ChatMessage,
  type ModelAdapter,
  type ModelStreamPart,
  type ReasoningBlock,
  type ToolSpec,
} from '../model/types.ts';
import { assistantContextMessage, toolContextMessage } from '../session/context.ts';
import { mentionedContent } from '../session/mention-context.ts';
import type { StoredImage } from '../session/session-images.ts';
import type { StatusSink } from '../status/sink.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { InstructionMessage } from './instructions.ts';
import { ReasoningPhase } from './reasoning-phase.ts';
import { ageToolResults } from './aging.ts';
import type { PromptCache } from './prompt-cache.ts';
import { runStepCalls, uniqueCallIds } from './tool-calls.ts';
import type { TurnMeter } from './usage-meter.ts';

// One turn: the person's message → a model step (text streams as assistant_delta, complete tool
// calls are collected) → assistant_message → every call through the registry → the complete
// results go back as tool messages → the next step … until a step asks for no tools and nothing
// waits in the queue. The live context is built with the same rules replay uses (session/context.ts);
// each request sends it with old, long tool results aged out (aging.ts).

export interface TurnContext {
  turnId: string;
  model: ModelAdapter;
  registry: ToolRegistry;
  sink: StatusSink;
  system: string;
  tools: ToolSpec[];
  effort: ReasoningEffort;
  /** The session's model context; the turn appends to it in place. */
  messages: ChatMessage[];
  signal: AbortSignal;
  maxSteps: number;
  /** Call ids already used in this session. */
  callIds: Set<string>;
  newCallId(): string;
  /** Messages the person sent while this turn ran, handed over once they can be delivered. */
  takeQueued(): UserInput[];
  /**
   * A steer about to enter the turn, as a prompt is before its turn (UserPromptSubmit): the reason
   * a hook blocked it (it never reaches the model), or what its hooks add, sent before it.
   */
  steerSubmitted?(input: UserInput): Promise<{ blocked: string } | { context: InstructionMessage[] }>;
  /** Keeps the reasoning of the assistant message about to be emitted (the session log). */
  recordReasoning(blocks: ReasoningBlock[]): Promise<void>;
  /** True after a step whose calls end the turn (a plan proposed): it completes without another model step. */
  endsTurn?(): boolean;
  /** Runs before each model step: compacts the context when the request would pass the threshold. */
  beforeStep?(): Promise<void>;
  /** Project instructions (instructions.ts): sent before the turn, and for folders the calls work in. */
  instructions?: {
    atTurnStart(context: readonly ChatMessage[]): Promise<InstructionMessage[]>;
    forCalls(calls: readonly ToolCallRequest[]): Promise<InstructionMessage[]>;
  };
  /** The context meter (usage-meter.ts): an estimate before each step, the provider's usage after it. */
  meter?: TurnMeter;
  /** The session's prompt cache (prompt-cache.ts): its key on each request, and the watch over the prefix. */
  promptCache?: PromptCache;
  /** The model is about to finish: context that sends it back to work (a Stop hook's block), or null. */
  beforeStop?(): Promise<InstructionMessage[] | null>;
}

export type TurnOutcome =
  | { status: 'completed'; usage: Usage; stopReason: string }
  | { status: 'failed'; usage: Usage; error: string; aborted: boolean };

export const STOPPED_MESSAGE = 'Stopped by the user.';

/** A stop that was not the person's (the app or the command line being ended): its message is logged. */
export class TurnStop extends DOMException {
  constructor(message: string) {
    super(message, 'AbortError');
  }
}

/** A message as the person sent it: its text, and the workspace paths mentioned with `@` (a folder ends in `/`). */
export interface UserInput {
  text: string;
  mentions?: readonly string[];
  images?: readonly StoredImage[];
  /** Sent while this turn ran: the user_message marks where it entered. */
  steer?: boolean;
  /** The queued message (protocol/queue.ts) this is: its user_message takes it out of the queue. */
  queuedId?: string;
}

interface StepResult {
  text: string;
  calls: ToolCallRequest[];
  finish?: { stop_reason: string; usage: Usage; reasoning?: ReasoningBlock[]; rate_limits?: RateLimit[] };
  failure?: string;
  /** A request refused for a rate limit: when trying again can work, and the limits it stated. */
  retryAt?: string;
  rateLimits?: RateLimit[];
}

export async function runTurn(ctx: TurnContext, inputs: readonly UserInput[]): Promise<TurnOutcome> {
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  const fail = async (error: string, refused?: Pick<StepResult, 'retryAt' | 'rateLimits'>): Promise<TurnOutcome> => {
    const aborted = ctx.signal.aborted;
    const { reason } = ctx.signal;
    const message = aborted ? (reason instanceof TurnStop ? reason.message : STOPPED_MESSAGE) : error;
    await ctx.sink.emit({
      type: 'turn_failed',
      turn_id: ctx.turnId,
      error: message,
      usage: { ...usage },
      ...(aborted ? { aborted } : {}),
      ...(refused?.retryAt !== undefined && !aborted ? { retry_at: refused.retryAt } : {}),
      ...(refused?.rateLimits !== undefined && !aborted ? { rate_limits: refused.rateLimits } : {}),
    });
    return { status: 'failed', usage, error: message, aborted };
  };

  await deliverInstructions(ctx, (await ctx.instructions?.atTurnStart(ctx.messages)) ?? []);
  for (const input of inputs) await deliverUserMessage(ctx, input);
  await ctx.sink.emit({ type: 'turn_started', turn_id: ctx.turnId, model: ctx.model.id });
  for (let step = 0; ; step += 1) {
    if (ctx.signal.aborted) return fail(STOPPED_MESSAGE);
    if (step >= ctx.maxSteps) {
      return fail(
        `The model took ${ctx.maxSteps} steps in one turn without finishing, so the turn was stopped. Send a message to let it go on.`,
      );
    }
    await ctx.beforeStep?.();
    if (ctx.signal.aborted) return fail(STOPPED_MESSAGE);
    const sent = ageToolResults(ctx.messages);
    const { system, tools } = ctx;
    ctx.promptCache?.observe({ model: ctx.model.id, system, tools, messages: ctx.messages, sent });
    await ctx.meter?.beforeStep({ system, messages: sent, tools });
    const result = await modelStep(ctx, { system, messages: sent, tools });
    if (result.finish) {
      usage.input_tokens += result.finish.usage.input_tokens;
      usage.output_tokens += result.finish.usage.output_tokens;
      await ctx.meter?.afterStep(result.finish.usage, result.finish.rate_limits);
    }
    if (result.failure !== undefined || !result.finish) {
      // Keep what arrived, marked partial; calls from a failed step are never run.
      if (result.text.length > 0)
        await emitAssistant(ctx, {
          type: 'assistant_message',
          turn_id: ctx.turnId,
          text: result.text,
          tool_calls: [],
          partial: true,
        });
      return fail(result.failure ?? 'The model stream ended without its final event.', result);
    }

    const calls = uniqueCallIds(result.calls, ctx.callIds, ctx.newCallId);
    const reasoning = result.finish.reasoning ?? [];
    if (reasoning.length > 0) await ctx.recordReasoning(reasoning);
    await emitAssistant(
      ctx,
      { type: 'assistant_message', turn_id: ctx.turnId, text: result.text, tool_calls: calls },
      reasoning,
    );
    if (calls.length > 0) {
      const outcomes = await runStepCalls(calls, { registry: ctx.registry, signal: ctx.signal, turnId: ctx.turnId });
      for (const outcome of outcomes) {
        ctx.messages.push(
          toolContextMessage(
            {
              call_id: outcome.callId,
              name: outcome.name,
              content: outcome.content,
              is_error: outcome.isError,
              ...(outcome.images ? { images: [...outcome.images] } : {}),
            },
            outcome.images,
          ),
        );
      }
      await deliverInstructions(ctx, (await ctx.instructions?.forCalls(calls)) ?? []);
    }
    if (ctx.signal.aborted) return fail(STOPPED_MESSAGE);
    if (calls.length > 0 && ctx.endsTurn?.()) {
      // A plan waits for the person: steers sent meanwhile start the next turn.
      await ctx.sink.emit({ type: 'turn_completed', turn_id: ctx.turnId, usage, stop_reason: 'plan_proposed' });
      return { status: 'completed', usage, stopReason: 'plan_proposed' };
    }
    const queued = await deliverSteers(ctx, ctx.takeQueued());
    if (calls.length === 0 && queued.length === 0) {
      const sentBack = await ctx.beforeStop?.();
      if (sentBack && sentBack.length > 0 && !ctx.signal.aborted) {
        await deliverInstructions(ctx, sentBack);
        continue;
      }
      await ctx.sink.emit({
        type: 'turn_completed',
        turn_id: ctx.turnId,
        usage,
        stop_reason: result.finish.stop_reason,
      });
      return { status: 'completed', usage, stopReason: result.finish.stop_reason };
    }
  }
}

/** The steers the hooks let through, each after what its hooks add; returns those delivered. */
async function deliverSteers(ctx: TurnContext, steers: readonly UserInput[]): Promise<UserInput[]> {
  const delivered: UserInput[] = [];
  for (const input of steers) {
    const submitted = await ctx.steerSubmitted?.(input);
    if (submitted && 'blocked' in submitted) continue;
    if (submitted) await deliverInstructions(ctx, submitted.context);
    await deliverUserMessage(ctx, input);
    delivered.push(input);
  }
  return delivered;
}

/**
 * The message's event first, then one call per mention through the registry (confinement and the
 * permission gate apply as to the model's own calls; each becomes a durable card), then the model
 * context gets the text with what the calls returned.
 */
async function deliverUserMessage(ctx: TurnContext, input: UserInput): Promise<void> {
  const { text } = input;
  const calls = (input.mentions ?? []).map((mention) => mentionCall(mention, ctx));
  const stored = input.images ?? [];
  await ctx.sink.emit({
    type: 'user_message',
    turn_id: ctx.turnId,
    text,
    ...(input.steer ? { steer: true as const } : {}),
    ...(input.queuedId === undefined ? {} : { queued_id: input.queuedId }),
    ...(calls.length > 0 ? { mention_calls: calls.map((call) => call.call_id) } : {}),
    ...(stored.length > 0
      ? { images: stored.map(({ sha256, media_type, bytes }) => ({ sha256, media_type, bytes })) }
      : {}),
  });
  const images =
    stored.length > 0 ? { images: stored.map(({ sha256, media_type, data }) => ({ sha256, media_type, data })) } : {};
  if (calls.length === 0) {
    ctx.messages.push({ role: 'user', content: text, ...images });
    return;
  }
  const outcomes = await runStepCalls(calls, { registry: ctx.registry, signal: ctx.signal, turnId: ctx.turnId });
  const contents = outcomes.map((outcome) => ({
    call_id: outcome.callId,
    name: outcome.name,
    content: outcome.content,
    is_error: outcome.isError,
  }));
  ctx.messages.push({ role: 'user', content: mentionedContent(text, contents), ...images });
}

function mentionCall(mention: string, ctx: TurnContext): ToolCallRequest {
  const folder = mention.endsWith('/');
  const relative = folder ? mention.replace(/\/+$/, '') || '.' : mention;
  let callId = ctx.newCallId();
  while (ctx.callIds.has(callId)) callId = ctx.newCallId();
  ctx.callIds.add(callId);
  return { call_id: callId, name: folder ? 'list_dir' : 'read_file', args: { path: relative } };
}

/** Context messages go to the log first, then into the model context, as replay rebuilds them. */
async function deliverInstructions(ctx: TurnContext, messages: readonly InstructionMessage[]): Promise<void> {
  for (const message of messages) {
    await ctx.sink.emit({ type: 'context_message', turn_id: ctx.turnId, ...message });
    ctx.messages.push({ role: 'user', content: message.text });
  }
}

async function emitAssistant(
  ctx: TurnContext,
  event: AssistantMessageEvent,
  reasoning?: ReasoningBlock[],
): Promise<void> {
  await ctx.sink.emit(event);
  const message = assistantContextMessage(event, reasoning);
  if (message) ctx.messages.push(message);
}

/** One model step. A stop wins at once, even against an adapter that is slow to notice its signal. */
async function modelStep(
  ctx: TurnContext,
  request: { system: string; messages: ChatMessage[]; tools: ToolSpec[] },
): Promise<StepResult> {
  let text = '';
  const calls: ToolCallRequest[] = [];
  let finish: StepResult['finish'];
  const thinking = new ReasoningPhase({
    turnId: ctx.turnId,
    emit: (event) => ctx.sink.emit(event),
    shown: ctx.effort !== 'off',
  });
  // The turn's signal outlives this step: its listener goes when the step ends.
  let onAbort = (): void => undefined;
  const stopped = new Promise<'stopped'>((resolve) => {
    onAbort = () => resolve('stopped');
    if (ctx.signal.aborted) resolve('stopped');
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const iterator: AsyncIterator<ModelStreamPart> = ctx.model
      .stream({
        ...request,
        effort: ctx.effort,
        signal: ctx.signal,
        ...(ctx.promptCache ? { promptCache: ctx.promptCache.request() } : {}),
      })
      [Symbol.asyncIterator]();
    for (;;) {
      const pending = iterator.next();
      pending.catch(() => undefined);
      const next = await Promise.race([pending, stopped]);
      if (next === 'stopped') {
        iterator.return?.()?.catch(() => undefined);
        return { text, calls: [], failure: STOPPED_MESSAGE };
      }
      if (next.done) break;
      const part = next.value;
      if (part.type === 'reasoning') {
        thinking.delta(part.text);
        continue;
      }
      await thinking.end();
      if (part.type === 'text') {
        text += part.text;
        Promise.resolve(ctx.sink.emit({ type: 'assistant_delta', turn_id: ctx.turnId, text: part.text })).catch(
          () => undefined,
        );
      } else if (part.type === 'tool_call') {
        calls.push(part.call);
      } else {
        finish = {
          stop_reason: part.stop_reason,
          usage: part.usage,
          ...(part.reasoning ? { reasoning: part.reasoning } : {}),
          ...(part.rate_limits ? { rate_limits: part.rate_limits } : {}),
        };
      }
    }
  } catch (error) {
    if (ctx.signal.aborted) return { text, calls: [], failure: STOPPED_MESSAGE };
    const refused = error instanceof ModelStreamError && error.retryAt !== undefined ? error : undefined;
    return {
      text,
      calls: [],
      failure: streamFailure(error),
      ...(refused === undefined ? {} : { retryAt: refused.retryAt, rateLimits: refused.rateLimits ?? [] }),
    };
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    // Reasoning cut short by a failure or a stop is still kept, as far as it came.
    await thinking.end();
  }
  return finish
    ? { text, calls, finish }
    : { text, calls: [], failure: 'The model stream ended without its final event; the answer may be incomplete.' };
}

function streamFailure(error: unknown): string {
  if (error instanceof ModelStreamError) return error.message;
  const message = errorMessage(error);
  return `The model request failed: ${message}`;
}
