import { describe, expect, it } from 'vitest';
import { tokenTexts } from '../../test/token-texts.ts';
import { messageLength, requestLength } from './token-bounds.ts';
import { countMessageByLength, countTextTokens, estimateMessageTokens, estimateTokens } from './token-estimate.ts';
import type { ChatMessage, ToolSpec } from './types.ts';

// The count by length: its ceiling is never below the tokenizer's estimate, for the texts whose
// tokens per character differ the most, short (counted whole) and long (counted from windows).

const TEXTS = tokenTexts();
const SIZES = [1, 7, 100, 1_000, 1_024, 1_025, 4_000, 40_000];

const TOOLS: ToolSpec[] = [
  { name: 'read_file', description: 'Read a file.', input_schema: { type: 'object', properties: {} } },
];

function messagesOf(text: string): ChatMessage[] {
  return [
    { role: 'user', content: text },
    {
      role: 'assistant',
      content: text.slice(0, 500),
      reasoning: [{ provider: 'anthropic', text: text.slice(100, 900) }],
      tool_calls: [{ call_id: 'c1', name: 'write_file', args: { path: 'a.txt', content: text } }],
    },
    { role: 'tool', call_id: 'c1', name: 'write_file', content: text, is_error: false },
  ];
}

describe('requestLength', () => {
  for (const [kind, whole] of Object.entries(TEXTS)) {
    it(`never counts ${kind} below the tokenizer, at any length`, () => {
      for (const size of SIZES) {
        const text = whole.slice(0, size);
        expect(countTextTokens(text)).toBeLessThanOrEqual(Buffer.byteLength(text, 'utf8'));
        for (const message of messagesOf(text)) {
          expect(messageLength(message).ceiling).toBeGreaterThanOrEqual(estimateMessageTokens(message));
        }
        const request = { system: text.slice(0, 300), messages: messagesOf(text), tools: TOOLS };
        expect(requestLength(request).ceiling).toBeGreaterThanOrEqual(estimateTokens(request));
      }
    });
  }

  it('counts images at the cost the estimate gives them, and a message counted already as counted', () => {
    const image = { media_type: 'image/png', sha256: 'a'.repeat(64) };
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Look.', images: [image] },
      { role: 'tool', call_id: 'c1', name: 'shot', content: 'A picture.', is_error: false, images: [image, image] },
    ];
    const request = { system: '', messages, tools: [], imageTokens: { user: 1_000, tool: 300 } };
    const length = requestLength(request);
    expect(length.ceiling).toBeGreaterThanOrEqual(estimateTokens(request));
    expect(length.likely).toBeGreaterThanOrEqual(1_600);
    // A resumed session's message is counted by length once: the estimate and the ceiling agree on it.
    const resumed: ChatMessage = { role: 'user', content: TEXTS.chinese!.slice(0, 3_000) };
    countMessageByLength(resumed);
    expect(messageLength(resumed)).toEqual({
      ceiling: estimateMessageTokens(resumed),
      likely: estimateMessageTokens(resumed),
    });
  });

  it('shows about the estimate for the texts a session is mostly made of', () => {
    for (const kind of ['code', 'prose', 'json', 'chinese', 'japanese', 'korean', 'emoji']) {
      const request = { system: '', messages: messagesOf(TEXTS[kind]!.slice(0, 20_000)), tools: [] };
      const ratio = requestLength(request).likely / estimateTokens(request);
      expect(ratio, kind).toBeGreaterThan(0.5);
      expect(ratio, kind).toBeLessThan(2);
    }
  });
});
