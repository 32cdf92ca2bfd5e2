import { errorMessage } from '../../protocol/errors.ts';
import type { CompactionEvent, CompactionFailedEvent, CompactionTrigger } from '../../protocol/events.ts';
import type { ChatMessage, ModelAdapter, ToolSpec } from '../model/types.ts';
import type { LengthCount } from '../model/token-bounds.ts';
import { imageTokensFor, type ImageTokens } from '../model/token-estimate.ts';
import { applyCompaction } from '../session/compacted-context.ts';
import type { StatusSink } from '../status/sink.ts';
import { ageToolResults } from './aging.ts';
import { COMPACTION_SYSTEM, compactionPrompt, transcriptOf } from './compaction-prompt.ts';

// Compaction: the older part of the model context becomes a summary written by the session's own
// model; the most recent whole steps (within a budget) and the person's last message stay
// verbatim. The budget is a share of the room the window leaves beside what compaction cannot
// shorten (the system prompt and the tools' definitions), counted as the meter counts. The
// `compaction` event is written to the session log before the live context changes, and replay
// applies the same event (session/compacted-context.ts), so both send the same requests.
// A failure — the model errs or answers with nothing — leaves the context as it was and says so.

export interface RequestShape {
  system: string;
  messages: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  /** What one image costs with the request's model (model/token-estimate.ts); default: the most any provider counts. */
  imageTokens?: ImageTokens;
}

/** What compaction needs to know about the model's room; the host fills it from the model registry and settings. */
export interface ContextBudget {
  /** The context window of a model, in tokens; undefined when unknown (then only a compaction by hand happens). */
  window(modelId: string): number | undefined;
  /** Estimated tokens of a request. */
  estimate(request: RequestShape): number;
  /**
   * The request counted without the tokenizer: `ceiling` never below `estimate`, `likely` about
   * it; absent (or undefined), compaction's decision always estimates.
   */
  byLength?(request: RequestShape): LengthCount | undefined;
  /** The fraction of the window past which the next request compacts first (default 0.85); null: off. */
  threshold(): number | null;
}

export const DEFAULT_THRESHOLD = 0.85;
/** The share of the room beside the system prompt and the tools that the kept steps may take. */
const KEPT_SHARE = 0.25;
/** The share of the window the summary request may take. */
const PROMPT_SHARE = 0.6;
const CLIP_LIMITS = [4000, 1500, 500, 160] as const;

export interface CompactionInput {
  model: ModelAdapter;
  budget: ContextBudget;
  sink: StatusSink;
  system: string;
  tools: readonly ToolSpec[];
  /** The live context; replaced in place once the event is on disk. */
  messages: ChatMessage[];
  trigger: CompactionTrigger;
  focus?: string;
  turnId?: string;
  notice?: string;
  signal?: AbortSignal;
}

interface Plan {
  /** Index of the first kept message (an assistant message), or messages.length when none is kept. */
  start: number;
  keptUserMessage: string | undefined;
  /** The latest project instructions document of each file, from the summarised part. */
  keptInstructions: string[];
  keptCallIds: string[];
}

/** Keeps the most recent whole steps (an assistant message and what follows it) that fit `budget` tokens. */
export function planCompaction(
  messages: readonly ChatMessage[],
  budget: number,
  estimate: (messages: readonly ChatMessage[]) => number,
): Plan {
  // A step starts at an assistant message, and a longer tail takes more tokens: the first step whose
  // tail fits is found by halving, with a few estimates instead of one of a longer tail per step.
  const steps: number[] = [];
  for (let index = 1; index < messages.length; index += 1) {
    if (messages[index]?.role === 'assistant') steps.push(index);
  }
  let low = 0;
  let high = steps.length;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (estimate(messages.slice(steps[middle])) > budget) low = middle + 1;
    else high = middle;
  }
  const start = steps[high] ?? messages.length;
  let lastUser = -1;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (messages[index]?.role === 'user') {
      lastUser = index;
      break;
    }
  }
  const user = messages[lastUser];
  const keptUserMessage = lastUser >= 0 && lastUser < start && user?.role === 'user' ? user.content : undefined;
  const keptCallIds = messages.slice(start).flatMap((message) => (message.role === 'tool' ? [message.call_id] : []));
  return { start, keptUserMessage, keptCallIds, keptInstructions: latestInstructions(messages.slice(0, start)) };
}

const INSTRUCTIONS = /^<instructions source="([^"]*)"( status="(?:changed|removed)")?>/;

/** Each instruction file's last document (agent/instructions.ts), unless the file was deleted since. */
function latestInstructions(messages: readonly ChatMessage[]): string[] {
  const latest = new Map<string, string | null>();
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const match = INSTRUCTIONS.exec(message.content);
    if (!match) continue;
    const source = match[1] ?? '';
    latest.delete(source);
    latest.set(source, match[2]?.includes('removed') ? null : message.content);
  }
  return [...latest.values()].filter((text): text is string => text !== null);
}

/**
 * Runs one compaction and returns its event: `compaction` (the live context is compacted) or
 * `compaction_failed` (it is as it was). Throws only when the event cannot be recorded.
 */
export async function compactContext(input: CompactionInput): Promise<CompactionEvent | CompactionFailedEvent> {
  const { budget, messages } = input;
  const imageTokens = imageTokensFor(input.model.id);
  const requestTokens = (list: readonly ChatMessage[]): number =>
    budget.estimate({ system: input.system, messages: ageToolResults(list), tools: input.tools, imageTokens });
  const fail = async (error: string): Promise<CompactionFailedEvent> => {
    const event: CompactionFailedEvent = {
      type: 'compaction_failed',
      trigger: input.trigger,
      error,
      ...(input.turnId ? { turn_id: input.turnId } : {}),
    };
    await input.sink.emit(event);
    return event;
  };

  const tokensBefore = requestTokens(messages);
  const messageTokens = (list: readonly ChatMessage[]): number =>
    budget.estimate({ system: '', messages: ageToolResults(list), tools: [], imageTokens });
  // What no compaction shortens: the system prompt and the tools' definitions.
  const fixed = requestTokens([]);
  // A model whose window is unknown (compaction by hand): the shares are of what the messages take.
  const known = budget.window(input.model.id);
  const room = known === undefined ? messageTokens(messages) : Math.max(0, known - fixed);
  const kept = Math.floor(room * KEPT_SHARE);
  const plan = planCompaction(messages, kept, messageTokens);
  if (!messages.slice(0, plan.start).some((message) => message.role !== 'user')) {
    return fail(nothingOlder({ conversation: messageTokens(messages), kept, fixed, window: known }));
  }

  const older = ageToolResults(messages).slice(0, plan.start);
  let prompt = '';
  for (const limit of CLIP_LIMITS) {
    prompt = compactionPrompt(transcriptOf(older, limit), input.focus);
    const size = budget.estimate({
      system: COMPACTION_SYSTEM,
      messages: [{ role: 'user', content: prompt }],
      tools: [],
    });
    if (known === undefined || size <= known * PROMPT_SHARE) break;
  }

  let summary: string;
  try {
    summary = (await summarise(input.model, prompt, input.signal ?? new AbortController().signal)).trim();
  } catch (error) {
    const reason = input.signal?.aborted ? 'it was stopped' : errorMessage(error).replace(/\.+$/, '');
    return fail(
      `The context was not compacted, because the summary could not be made: ${reason}. Nothing was removed.`,
    );
  }
  if (summary.length === 0) {
    return fail(
      'The context was not compacted, because the model answered with an empty summary. Nothing was removed.',
    );
  }

  const record = {
    summary,
    kept_messages: messages.length - plan.start,
    ...(plan.keptUserMessage !== undefined ? { kept_user_message: plan.keptUserMessage } : {}),
    ...(plan.keptInstructions.length > 0 ? { kept_instructions: plan.keptInstructions } : {}),
  };
  const compacted = applyCompaction(messages, record);
  const event: CompactionEvent = {
    type: 'compaction',
    ...(input.turnId ? { turn_id: input.turnId } : {}),
    trigger: input.trigger,
    model: input.model.id,
    ...record,
    ...(input.focus?.trim() ? { focus: input.focus.trim() } : {}),
    tokens_before: tokensBefore,
    tokens_after: requestTokens(compacted),
    kept_call_ids: plan.keptCallIds,
    ...(input.notice ? { notice: input.notice } : {}),
  };
  // On disk first: if the log cannot take it, the context stays as it was (the error propagates).
  await input.sink.emit(event);
  messages.splice(0, messages.length, ...compacted);
  return event;
}

const tokens = (count: number): string => `about ${new Intl.NumberFormat('en').format(count)} tokens`;

/** Why nothing was compacted, in terms the person can act on: what the context is made of. */
function nothingOlder(sizes: {
  conversation: number;
  kept: number;
  fixed: number;
  window: number | undefined;
}): string {
  const { conversation, kept, fixed, window } = sizes;
  const first =
    `Nothing to compact yet: the conversation takes ${tokens(conversation)}, and its most recent steps, ` +
    `up to ${tokens(kept)}, are always kept as they are, so there is nothing older to summarise.`;
  if (window !== undefined && fixed > window / 2) {
    return (
      `${first} Most of the context is the system prompt and the tools' definitions (${tokens(fixed)} of the ` +
      `${new Intl.NumberFormat('en').format(window)}-token window), which compaction cannot shorten: turn off ` +
      'MCP servers this session does not need, or pick a model with a larger window.'
    );
  }
  return `${first} Compact once the conversation has grown.`;
}

async function summarise(model: ModelAdapter, prompt: string, signal: AbortSignal): Promise<string> {
  let text = '';
  const stream = model.stream({
    system: COMPACTION_SYSTEM,
    messages: [{ role: 'user', content: prompt }],
    tools: [],
    effort: 'off',
    signal,
  });
  let finished = false;
  for await (const part of stream) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'finish') finished = true;
  }
  if (!finished) throw new Error('the model stream ended without its final event');
  return text;
}

/** Whether the next request should compact first, and why. */
export function compactionDue(
  budget: ContextBudget,
  model: ModelAdapter,
  request: RequestShape,
): { trigger: CompactionTrigger; notice?: string } | null {
  const window = budget.window(model.id);
  if (window === undefined) return null;
  const threshold = budget.threshold();
  const sent = { ...request, messages: ageToolResults(request.messages), imageTokens: imageTokensFor(model.id) };
  // A ceiling at or under both lines settles it without the tokenizer: the estimate is under it.
  const ceiling = budget.byLength?.(sent)?.ceiling;
  if (ceiling !== undefined && ceiling <= window && (threshold === null || ceiling <= window * threshold)) return null;
  const tokens = budget.estimate(sent);
  if (tokens > window) {
    return {
      trigger: 'window',
      notice: `The context (about ${tokens} tokens) does not fit the ${window}-token window of ${model.id}, so it was compacted before the next request.`,
    };
  }
  if (threshold !== null && tokens > window * threshold) return { trigger: 'auto' };
  return null;
}
