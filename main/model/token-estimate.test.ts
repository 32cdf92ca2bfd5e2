import { createCipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { countTextTokens, estimateMessageTokens, estimateTokens } from './token-estimate.ts';
import type { ChatMessage, ToolSpec } from './types.ts';

// The tokenizer estimate: real BPE counts (not characters ÷ 4), each message counted once.

const TOOLS: ToolSpec[] = [
  { name: 'read_file', description: 'Read a file.', input_schema: { type: 'object', properties: {} } },
];

describe('estimateTokens', () => {
  it('counts with the tokenizer, not by characters', () => {
    // One common word is one token; forty digits of pi are far more than ten.
    expect(countTextTokens('hello')).toBe(1);
    expect(countTextTokens(' hello hello hello hello')).toBe(4);
    expect(countTextTokens('3.141592653589793238462643383279502884197')).toBeGreaterThan(10);
    expect(countTextTokens('')).toBe(0);
  });

  it('counts special-token markers in tool output as text instead of failing', () => {
    expect(countTextTokens('a <|endoftext|> b')).toBeGreaterThan(3);
  });

  it('adds the system prompt, the tool declarations and every message with its framing', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Read a.txt' },
      {
        role: 'assistant',
        content: 'Reading.',
        tool_calls: [{ call_id: 'c1', name: 'read_file', args: { path: 'a.txt' } }],
      },
      { role: 'tool', call_id: 'c1', name: 'read_file', content: 'alpha beta gamma', is_error: false },
    ];
    const bare = estimateTokens({ system: '', messages: [], tools: [] });
    const full = estimateTokens({ system: 'You are helpful.', messages, tools: TOOLS });
    const parts =
      countTextTokens('You are helpful.') +
      countTextTokens(`read_file\nRead a file.\n${JSON.stringify(TOOLS[0]?.input_schema)}`) +
      messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
    expect(full).toBe(bare + parts);
    expect(estimateMessageTokens(messages[0]!)).toBe(4 + countTextTokens('Read a.txt'));
  });

  it('grows with a new message by that message alone', () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'first question' }];
    const before = estimateTokens({ system: 's', messages, tools: TOOLS });
    const added: ChatMessage = {
      role: 'tool',
      call_id: 'c9',
      name: 'exec',
      content: 'x'.repeat(5000),
      is_error: false,
    };
    messages.push(added);
    expect(estimateTokens({ system: 's', messages, tools: TOOLS })).toBe(before + estimateMessageTokens(added));
  });

  it('counts each tool declaration once, though every step passes a new list of them', () => {
    const tool: ToolSpec = { name: 'lookup', description: 'Looks a word up.', input_schema: { type: 'object' } };
    const first = estimateTokens({ system: '', messages: [], tools: [tool] });
    // Declarations never change (agent/tool-specs.ts makes each once): a count kept with it stays valid.
    tool.description = 'Looks a word up in every dictionary there is, one after another, slowly.';
    expect(estimateTokens({ system: '', messages: [], tools: [tool] })).toBe(first);
  });

  it('counts a call carrying 40 MB of base64 by the tokens per byte of base64', () => {
    const blob = createCipheriv('aes-128-ctr', Buffer.alloc(16), Buffer.alloc(16))
      .update(Buffer.alloc(30_000_000))
      .toString('base64');
    const call: ChatMessage = {
      role: 'assistant',
      content: '',
      tool_calls: [{ call_id: 'c1', name: 'write_file', args: { path: 'image.png', content: blob } }],
    };
    const perByte = countTextTokens(blob.slice(0, 30_000)) / 30_000;
    expect(Math.abs(estimateMessageTokens(call) / (blob.length * perByte) - 1)).toBeLessThan(0.02);
  });
});
