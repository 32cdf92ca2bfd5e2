import {
  BYTES_PER_TOKEN,
  knownMessageTokens,
  knownSystemTokens,
  knownToolTokens,
  messageImageTokens,
  messageParts,
  MOST_IMAGE_TOKENS,
  PART_SEPARATOR_TOKENS,
  PER_MESSAGE_TOKENS,
  PER_REQUEST_TOKENS,
  toolText,
  type ImageTokens,
} from './token-estimate.ts';
import type { ChatMessage, ToolSpec } from './types.ts';

// A request's tokens from the length of its texts, without the tokenizer's tables (tens of MiB and
// up to a second and a half of CPU to load): what the context meter shows and compaction decides by
// while the context is far from a line that matters.
//
// `ceiling` is never below `estimateTokens` of the same request, whatever the text: every token of
// the o200k encoding stands for at least one UTF-8 byte, so a piece's count is at most its bytes; a
// long text's count from windows (text-token-estimate.ts) is its windows' tokens per byte, at most
// one, times its bytes; the framing and the images are counted as the estimate counts them, and a
// part the estimate counted already (a message it saw, a resumed session's, counted by length)
// weighs what the estimate says. `likely` is the count to show: bytes ÷ 4, about what o200k makes
// of English and code, and closer than characters ÷ 4 for text in other scripts.

export interface LengthCount {
  /** Never below the tokenizer's estimate. */
  ceiling: number;
  /** About the tokenizer's estimate. */
  likely: number;
}

const messageLengths = new WeakMap<ChatMessage, LengthCount>();
const toolLengths = new WeakMap<ToolSpec, LengthCount>();
const systemLengths = new Map<string, LengthCount>();
const SYSTEM_CACHE_SIZE = 8;

function partsLength(parts: readonly string[], framing: number): LengthCount {
  let ceiling = framing;
  let likely = framing;
  for (const part of parts) {
    const bytes = Buffer.byteLength(part, 'utf8');
    ceiling += bytes;
    likely += Math.ceil(bytes / BYTES_PER_TOKEN);
  }
  return { ceiling, likely };
}

function exactly(count: number): LengthCount {
  return { ceiling: count, likely: count };
}

/** A message's count by its length, or the estimate's own when it has one. */
export function messageLength(message: ChatMessage): LengthCount {
  const known = knownMessageTokens(message);
  if (known !== undefined) return exactly(known);
  let length = messageLengths.get(message);
  if (length === undefined) {
    const parts = messageParts(message);
    length = partsLength(parts, PER_MESSAGE_TOKENS + (parts.length - 1) * PART_SEPARATOR_TOKENS);
    messageLengths.set(message, length);
  }
  return length;
}

function systemLength(system: string): LengthCount {
  const known = knownSystemTokens(system);
  if (known !== undefined) return exactly(known);
  let length = systemLengths.get(system);
  if (length === undefined) {
    length = partsLength([system], 0);
    if (systemLengths.size >= SYSTEM_CACHE_SIZE) systemLengths.clear();
    systemLengths.set(system, length);
  }
  return length;
}

function toolLength(tool: ToolSpec): LengthCount {
  const known = knownToolTokens(tool);
  if (known !== undefined) return exactly(known);
  let length = toolLengths.get(tool);
  if (length === undefined) {
    length = partsLength([toolText(tool)], 0);
    toolLengths.set(tool, length);
  }
  return length;
}

/** `estimateTokens`'s request, counted by length: a ceiling of its estimate, and about the estimate. */
export function requestLength(request: {
  system: string;
  messages: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  imageTokens?: ImageTokens;
}): LengthCount {
  const images = request.imageTokens ?? MOST_IMAGE_TOKENS;
  const system = systemLength(request.system);
  let ceiling = PER_REQUEST_TOKENS + system.ceiling;
  let likely = PER_REQUEST_TOKENS + system.likely;
  for (const tool of request.tools) {
    const length = toolLength(tool);
    ceiling += length.ceiling;
    likely += length.likely;
  }
  for (const message of request.messages) {
    const length = messageLength(message);
    const imageTokens = messageImageTokens(message, images);
    ceiling += length.ceiling + imageTokens;
    likely += length.likely + imageTokens;
  }
  return { ceiling, likely };
}
