import { describe, expect, it } from 'vitest';
import { countTextTokens, estimateMessageTokens } from '../model/token-estimate.ts';
import type { ChatMessage } from '../model/types.ts';
import { ageToolResults } from './aging.ts';
import { ModelContext } from './resumed-context.ts';

// A resumed session's context is counted by its length (about four UTF-8 bytes a token), not by the
// tokenizer, for the meter and compaction; what the session adds afterwards is tokenized.

/** A text the tokenizer counts far from its length: one long run of a repeated word. */
const TEXT = 'go '.repeat(600);
const byLength = (parts: string[]) =>
  4 + (parts.length - 1) + parts.reduce((sum, part) => sum + Math.ceil(part.length / 4), 0);

function conversation(): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'user', content: TEXT }];
  // Enough steps of long results that the first ones are aged in a request.
  for (let step = 0; step < 12; step += 1) {
    const call = { call_id: `c${step}`, name: 'read_file', args: { path: `f${step}.ts` } };
    messages.push({ role: 'assistant', content: '', tool_calls: [call] });
    messages.push({
      role: 'tool',
      call_id: call.call_id,
      name: call.name,
      content: 'x'.repeat(20_000),
      is_error: false,
    });
  }
  return messages;
}

describe('a resumed context’s token count', () => {
  it('counts the resumed messages and their aged forms by length, and new messages by the tokenizer', () => {
    expect(countTextTokens(TEXT)).not.toBe(Math.ceil(TEXT.length / 4));
    const context = new ModelContext([], conversation, '/nowhere');
    const messages = context.now();
    const first = messages[0]!;
    expect(estimateMessageTokens(first)).toBe(byLength([TEXT]));

    const sent = ageToolResults(messages);
    const agedIndex = sent.findIndex((message, index) => message !== messages[index]);
    expect(agedIndex).toBeGreaterThan(0);
    const aged = sent[agedIndex]!;
    if (aged.role !== 'tool') throw new Error('the aged message is a tool result');
    expect(estimateMessageTokens(aged)).toBe(byLength([aged.call_id, aged.name, aged.content]));

    const added: ChatMessage = { role: 'user', content: TEXT };
    messages.push(added);
    expect(estimateMessageTokens(added)).toBe(4 + countTextTokens(TEXT));
  });

  it('counts text in other scripts by its bytes, close to the tokenizer, where characters would be far too few', () => {
    const chinese = '压缩把较早的消息写成摘要，最近的步骤和用户的最后一条消息原样保留。'.repeat(40);
    const context = new ModelContext([], () => [{ role: 'user', content: chinese }], '/nowhere');
    const resumed = context.now()[0]!;
    const tokenizer = 4 + countTextTokens(chinese);
    expect(estimateMessageTokens(resumed)).toBe(4 + Math.ceil(Buffer.byteLength(chinese, 'utf8') / 4));
    expect(estimateMessageTokens(resumed) / tokenizer).toBeGreaterThan(0.75);
    expect(Math.ceil(chinese.length / 4) / tokenizer).toBeLessThan(0.5);
  });

  it('leaves a new session’s messages to the tokenizer', () => {
    const context = new ModelContext([], null, '/nowhere');
    const message: ChatMessage = { role: 'user', content: TEXT };
    context.now().push(message);
    expect(estimateMessageTokens(message)).toBe(4 + countTextTokens(TEXT));
  });
});
