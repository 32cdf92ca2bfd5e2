import { formatBytes } from '../../protocol/format.ts';
import type { ChatMessage } from '../model/types.ts';

// Tool results age out of the model context before whole turns do: a result from before the last
// `keepSteps` model steps that is longer than `minChars` is sent as a one-line stub naming its call
// id. The session log keeps the full text (the call's card shows it; `tool:content` by call id),
// and the live context keeps it too — only the request is shortened. A pure function of the
// messages, so a replayed or resumed session sends byte-identical requests.

export interface AgingPolicy {
  /** Results of this many most recent model steps are always sent whole. */
  keepSteps: number;
  /** Older results up to this many characters are sent whole too. */
  minChars: number;
}

export const DEFAULT_AGING: AgingPolicy = { keepSteps: 4, minChars: 2048 };

export function agedStub(message: { call_id: string; name: string; content: string }): string {
  const size = formatBytes(Buffer.byteLength(message.content, 'utf8'));
  return (
    `[Result of call ${message.call_id} (${message.name}, ${size}) left out of the context to save room. ` +
    `The session keeps its full text under that call id; call ${message.name} again if you need it.]`
  );
}

/** The messages as a request sends them: old, long tool results replaced by stubs. Never mutates. */
export function ageToolResults(messages: readonly ChatMessage[], policy: AgingPolicy = DEFAULT_AGING): ChatMessage[] {
  let steps = 0;
  let cutoff = -1;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (messages[index]?.role !== 'assistant') continue;
    steps += 1;
    if (steps === policy.keepSteps) {
      cutoff = index;
      break;
    }
  }
  if (cutoff <= 0) return [...messages];
  return messages.map((message, index) =>
    index < cutoff && message.role === 'tool' && message.content.length > policy.minChars
      ? { ...message, content: agedStub(message) }
      : message,
  );
}
