import { createRequire } from 'node:module';
import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';
import type { ProviderName } from '../../protocol/providers.ts';
import { MODEL_PROVIDER_LIST, modelProviderOf } from './providers.ts';
import { EXACT_LIMIT, estimateTextTokens } from './text-token-estimate.ts';
import type { ChatMessage, ToolSpec } from './types.ts';

// The tokenizer's estimate of a request, used before a provider's own count arrives (the context
// meter during a step, the compaction threshold). o200k_base is OpenAI's current encoding; other
// providers' tokenizers differ by a few percent, which is why the provider's figure replaces this
// one as soon as a step ends.
//
// A request is mostly the messages of earlier requests, so each message's count is kept with the
// message object (a WeakMap: it goes when the message does) and only new messages are tokenized.
// A text reaches the tokenizer in bounded pieces, and a long one only in part
// (text-token-estimate.ts), so what one text costs stops growing past a limit: megabytes of base64
// in a call's argument cost about what 32 KB of it does.

/** Framing the chat formats add around each message (role, separators). */
export const PER_MESSAGE_TOKENS = 4;
/** Framing of the whole request (the reply's priming). */
export const PER_REQUEST_TOKENS = 3;

// Text from files and tools may contain `<|endoftext|>` and the like: counted as plain text.
const PLAIN = { disallowedSpecial: new Set<string>() };

// The encoding's tables take a noticeable time to load (hundreds of ms on a busy machine): they
// are loaded on the first estimate, so a process that never estimates (`aether tool`) never pays,
// or a moment after a count by length sees that an estimate will soon be needed.
let encoding: typeof O200k | undefined;
let warming: ReturnType<typeof setTimeout> | undefined;

function loaded(): typeof O200k {
  encoding ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as typeof O200k;
  return encoding;
}

/** Whether the tables are loaded: from then on an exact count costs only the new text's tokenizing. */
export function tokenizerLoaded(): boolean {
  return encoding !== undefined;
}

/**
 * Loads the tables `delayMs` from now, unless they are loaded or on their way: called as a request
 * goes out, the load runs while the model answers instead of before the request that needs them.
 */
export function warmTokenizer(delayMs: number): void {
  if (encoding !== undefined || warming !== undefined) return;
  warming = setTimeout(loaded, delayMs);
  warming.unref();
}

function countTokens(text: string): number {
  return loaded().countTokens(text, PLAIN);
}

const messageCounts = new WeakMap<ChatMessage, number>();
// Per declaration, not per list: each step's list is a new array of the same declarations.
const toolCounts = new WeakMap<ToolSpec, number>();
const systemCounts = new Map<string, number>();
const SYSTEM_CACHE_SIZE = 8;

/**
 * Tokens in a piece of text, by the tokenizer (special-token markers count as text); past
 * text-token-estimate.ts's limit, by the tokens per byte of windows spread over it.
 */
export function countTextTokens(text: string): number {
  return text.length === 0 ? 0 : estimateTextTokens(text, countTokens);
}

/** Between two parts of a message (ids, name, content, each call), as the chat formats join them. */
export const PART_SEPARATOR_TOKENS = 1;

/** The texts of a message the estimate counts, each on its own. */
export function messageParts(message: ChatMessage): string[] {
  if (message.role === 'user') return [message.content];
  if (message.role === 'tool') return [message.call_id, message.name, message.content];
  const calls = message.tool_calls.flatMap((call) => [call.call_id, call.name, ...argumentParts(call.args)]);
  // Reasoning sent back (signed thinking) is input too.
  const reasoning = (message.reasoning ?? []).map((block) => block.text);
  return [...reasoning, message.content, ...calls];
}

/**
 * A call's arguments as JSON, with each string longer than the tokenizer counts whole taken out and
 * counted as a part of its own: megabytes of base64 in an argument are neither serialised nor joined.
 */
function argumentParts(args: unknown): string[] {
  const long: string[] = [];
  const json = JSON.stringify(args, (_key, value: unknown) => {
    if (typeof value !== 'string' || value.length <= EXACT_LIMIT) return value;
    long.push(value);
    return '';
  });
  return [json ?? '', ...long];
}

/** A message's count if it was counted already (by the tokenizer, or by its length on resume). */
export function knownMessageTokens(message: ChatMessage): number | undefined {
  return messageCounts.get(message);
}

/** The system prompt's count if it was counted already. */
export function knownSystemTokens(system: string): number | undefined {
  return systemCounts.get(system);
}

/** A tool declaration's count if it was counted already. */
export function knownToolTokens(tool: ToolSpec): number | undefined {
  return toolCounts.get(tool);
}

/** The text of a tool declaration as the estimate counts it. */
export function toolText(tool: ToolSpec): string {
  return `${tool.name}\n${tool.description}\n${JSON.stringify(tool.input_schema)}`;
}

export function estimateMessageTokens(message: ChatMessage): number {
  const known = messageCounts.get(message);
  if (known !== undefined) return known;
  const parts = messageParts(message);
  let count = PER_MESSAGE_TOKENS + (parts.length - 1) * PART_SEPARATOR_TOKENS;
  for (const part of parts) count += countTextTokens(part);
  messageCounts.set(message, count);
  return count;
}

/**
 * UTF-8 bytes a token, for a count without the tokenizer: about what o200k_base makes of English
 * and code, and of Chinese, Japanese or Korean text too (where four characters would be three times
 * too few tokens).
 */
export const BYTES_PER_TOKEN = 4;

/**
 * Counts a message by its length instead of the tokenizer, unless it is counted already: for a
 * resumed session's context, which the tokenizer would take seconds over before its first request.
 * The provider's figure after a step scales this estimate as it does the tokenizer's.
 */
export function countMessageByLength(message: ChatMessage): void {
  if (messageCounts.has(message)) return;
  const parts = messageParts(message);
  let count = PER_MESSAGE_TOKENS + (parts.length - 1) * PART_SEPARATOR_TOKENS;
  for (const part of parts) count += Math.ceil(Buffer.byteLength(part, 'utf8') / BYTES_PER_TOKEN);
  messageCounts.set(message, count);
}

function systemTokens(system: string): number {
  const known = systemCounts.get(system);
  if (known !== undefined) return known;
  const count = countTextTokens(system);
  if (systemCounts.size >= SYSTEM_CACHE_SIZE) systemCounts.clear();
  systemCounts.set(system, count);
  return count;
}

function toolTokens(tools: readonly ToolSpec[]): number {
  let total = 0;
  for (const tool of tools) {
    let count = toolCounts.get(tool);
    if (count === undefined) {
      count = countTextTokens(toolText(tool));
      toolCounts.set(tool, count);
    }
    total += count;
  }
  return total;
}

/**
 * What one image costs in a request, by where it sits: in a person's message, or in a tool result.
 * Each provider's record says what it counts (providers.ts `imageTokens`).
 */
export interface ImageTokens {
  user: number;
  tool: number;
}

/** Each provider's image costs, from its record. */
export const IMAGE_TOKENS = Object.fromEntries(
  MODEL_PROVIDER_LIST.map((provider) => [provider.id, provider.imageTokens]),
) as Readonly<Record<ProviderName, ImageTokens>>;

/** The most any provider counts, for an id of none (the demo, a typo). */
export const MOST_IMAGE_TOKENS: ImageTokens = {
  user: Math.max(...MODEL_PROVIDER_LIST.map((provider) => provider.imageTokens.user)),
  tool: Math.max(...MODEL_PROVIDER_LIST.map((provider) => provider.imageTokens.tool)),
};

/** The image costs of a model id's provider; an unknown id counts the most any provider does. */
export function imageTokensFor(modelId: string): ImageTokens {
  return modelProviderOf(modelId)?.imageTokens ?? MOST_IMAGE_TOKENS;
}

/** What a message's images cost at `costs`, as the estimate counts them. */
export function messageImageTokens(message: ChatMessage, costs: ImageTokens): number {
  if (message.role === 'assistant') return 0;
  return (message.images?.length ?? 0) * (message.role === 'user' ? costs.user : costs.tool);
}

/**
 * The estimated input tokens of a request: system prompt, tool declarations and messages, their
 * images at the fixed cost of `imageTokens` (default: the most any provider counts).
 */
export function estimateTokens(request: {
  system: string;
  messages: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  imageTokens?: ImageTokens;
}): number {
  const images = request.imageTokens ?? MOST_IMAGE_TOKENS;
  let total = PER_REQUEST_TOKENS + systemTokens(request.system) + toolTokens(request.tools);
  for (const message of request.messages) total += estimateMessageTokens(message) + messageImageTokens(message, images);
  return total;
}
