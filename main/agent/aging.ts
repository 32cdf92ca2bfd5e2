import { formatBytes } from '../../protocol/format.ts';
import type { ChatImage, ChatMessage } from '../model/types.ts';

// Tool results age out of the model context before whole turns do: a result from before the last
// `keepSteps` model steps that is longer than `minChars` is sent as a one-line stub naming its call
// id. Images of messages from before those steps (a tool result's, the person's) are left out the
// same way, whatever their size, each named in a short note (type and hash) where it was. The
// session log keeps the full text and the images (the call's card shows them; `tool:content` by call
// id), and the live context keeps them too — only the request is shortened.
//
// Aging goes in blocks, so the request's prefix stays byte-identical from one step to the next and
// the provider's prompt cache keeps reading it: the boundary before which messages are aged moves
// only when what waits behind it to age — long results and images older than `keepSteps` — passes
// `blockChars`, and then it moves up to the `keepSteps` boundary in one go. Where it stands is
// decided at each request in turn from the messages that request had, so it is a pure function of
// the messages: a replayed or resumed session sends byte-identical requests.

export interface AgingPolicy {
  /** Results of this many most recent model steps are always sent whole. */
  keepSteps: number;
  /** Older results up to this many characters are sent whole too. */
  minChars: number;
  /** The aged part grows only once what waits to age passes this many characters (an image counts `imageChars`). */
  blockChars: number;
}

export const DEFAULT_AGING: AgingPolicy = { keepSteps: 4, minChars: 2048, blockChars: 48 * 1024 };

/** What an image waiting to age weighs against `blockChars`: about its tokens' worth of text. */
const IMAGE_CHARS = 6_400;

/**
 * The line an aged result is sent as. Short, since a long session sends thousands of them at every
 * step: the call it answers is already named by the tool message's call id.
 */
export function agedStub(message: { name: string; content: string }): string {
  const size = formatBytes(Buffer.byteLength(message.content, 'utf8'));
  return `[${size} result left out to save room; call ${message.name} again if you need it.]`;
}

/** The note that stands in a message for the images left out of it. */
export function agedImagesNote(message: ChatMessage & { images?: ChatImage[] }): string {
  const images = message.images ?? [];
  const count = images.length;
  const named = images.map((image) => `${image.media_type} ${image.sha256.slice(0, 12)}`).join(', ');
  const what = count === 1 ? 'image' : `${count} images`;
  const again =
    message.role === 'tool'
      ? `call ${message.name} again if you need to see ${count === 1 ? 'it' : 'them'}`
      : `ask the person to attach ${count === 1 ? 'it' : 'them'} again if you need to see ${count === 1 ? 'it' : 'them'}`;
  return `[The ${what} here (${named}) left out of the context to save room; ${again}.]`;
}

/** Aged versions kept with their message, so each request reuses one object (and its token count). */
const agedOf = new WeakMap<ChatMessage, { minChars: number; message: ChatMessage }>();

function aged(message: ChatMessage, policy: AgingPolicy): ChatMessage {
  if (message.role === 'assistant') return message;
  const images = (message.images?.length ?? 0) > 0;
  const long = message.role === 'tool' && message.content.length > policy.minChars;
  if (!images && !long) return message;
  const known = agedOf.get(message);
  if (known?.minChars === policy.minChars) return known.message;
  const text = message.role === 'tool' && long ? agedStub(message) : message.content;
  const content = images ? `${text}\n${agedImagesNote(message)}` : text;
  const { images: _left, ...rest } = message;
  const result: ChatMessage = { ...rest, content };
  agedOf.set(message, { minChars: policy.minChars, message: result });
  return result;
}

/** What a message would save by aging: a long tool result's text, an image's weight. */
function agingWeight(message: ChatMessage, policy: AgingPolicy): number {
  if (message.role === 'assistant') return 0;
  const text = message.role === 'tool' && message.content.length > policy.minChars ? message.content.length : 0;
  return text + (message.images?.length ?? 0) * IMAGE_CHARS;
}

/**
 * Where the aged part ends for a request of these messages: the index of the first message sent
 * as it is. Walks the requests the messages were sent in (each before an assistant message, and
 * the next one at the end) and moves the boundary at the ones where enough waited to age.
 */
export function agingBoundary(messages: readonly ChatMessage[], policy: AgingPolicy = DEFAULT_AGING): number {
  const steps: number[] = [];
  let boundary = 0;
  let waiting = 0;
  /** Up to which message `waiting` counts. */
  let counted = 0;
  // At each request: the first message of the oldest step kept whole, and whether the boundary moves to it.
  const request = (): void => {
    const keepFrom = steps.length >= policy.keepSteps ? (steps[steps.length - policy.keepSteps] ?? 0) : 0;
    for (; counted < keepFrom; counted += 1) {
      const message = messages[counted];
      if (message !== undefined) waiting += agingWeight(message, policy);
    }
    if (keepFrom > boundary && waiting > policy.blockChars) {
      boundary = keepFrom;
      waiting = 0;
    }
  };
  messages.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    request();
    steps.push(index);
  });
  request();
  return boundary;
}

/**
 * The messages as a request sends them: old, long tool results replaced by stubs and old images by
 * notes naming them, up to the aging boundary. Never mutates.
 */
export function ageToolResults(messages: readonly ChatMessage[], policy: AgingPolicy = DEFAULT_AGING): ChatMessage[] {
  const cutoff = agingBoundary(messages, policy);
  if (cutoff <= 0) return [...messages];
  return messages.map((message, index) => (index < cutoff ? aged(message, policy) : message));
}
