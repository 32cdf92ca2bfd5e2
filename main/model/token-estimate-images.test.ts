import { describe, expect, it } from 'vitest';
import { estimateTokens, IMAGE_TOKENS, imageTokensFor } from './token-estimate.ts';
import type { ChatImage, ChatMessage } from './types.ts';

// Images in the estimate: each at its provider's fixed cost, by where it sits (a person's message,
// a tool result), with nothing for a tool result's images a compat model is never sent.

const image = (n: number): ChatImage => ({ sha256: String(n).repeat(64).slice(0, 64), media_type: 'image/png' });

const messages: ChatMessage[] = [
  { role: 'user', content: 'What is on these?', images: [image(1), image(2)] },
  { role: 'assistant', content: '', tool_calls: [{ call_id: 'c1', name: 'mcp__x__shot', args: {} }] },
  {
    role: 'tool',
    call_id: 'c1',
    name: 'mcp__x__shot',
    content: '[image image/png, 2 KiB]',
    is_error: false,
    images: [image(3)],
  },
];
const withoutImages = messages.map((message) =>
  message.role === 'assistant' ? message : { ...message, images: [] },
) as ChatMessage[];

function imageCost(modelId: string): number {
  const request = { system: '', tools: [], imageTokens: imageTokensFor(modelId) };
  return estimateTokens({ ...request, messages }) - estimateTokens({ ...request, messages: withoutImages });
}

describe('images in the token estimate', () => {
  it('counts each image at its provider’s cost', () => {
    expect(imageCost('anthropic:claude-sonnet-4-5')).toBe(3 * 1_600);
    expect(imageCost('openai:gpt-4.1')).toBe(3 * 1_105);
  });

  it('counts a compat model’s own images, not the tool result’s it never receives', () => {
    expect(imageCost('compat:http://127.0.0.1:8080/v1#local')).toBe(2 * IMAGE_TOKENS.compat.user);
  });

  it('counts the most any provider does when the model is not known', () => {
    expect(imageCost('demo')).toBe(3 * IMAGE_TOKENS.anthropic.user);
    const request = { system: '', tools: [] };
    expect(estimateTokens({ ...request, messages }) - estimateTokens({ ...request, messages: withoutImages })).toBe(
      3 * 1_600,
    );
  });
});
