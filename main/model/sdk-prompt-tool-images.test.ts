import { describe, expect, it } from 'vitest';
import { toSdkPrompt } from './sdk-prompt.ts';
import type { ChatMessage } from './types.ts';

// Where a tool result's images go in the prompt, per provider family.

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7]);
const messages = (data?: Uint8Array): ChatMessage[] => [
  { role: 'user', content: 'Look.' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [
      { call_id: 'a', name: 'mcp__s__shot', args: {} },
      { call_id: 'b', name: 'mcp__s__echo', args: {} },
    ],
  },
  {
    role: 'tool',
    call_id: 'a',
    name: 'mcp__s__shot',
    content: '[image image/png, 9 bytes]',
    is_error: false,
    images: [{ sha256: 'f'.repeat(64), media_type: 'image/png', ...(data ? { data } : {}) }],
  },
  { role: 'tool', call_id: 'b', name: 'mcp__s__echo', content: 'hi', is_error: false },
  { role: 'user', content: 'And?' },
];

describe('tool result images in the prompt', () => {
  it('go inside the tool result for Anthropic, after its text', () => {
    const prompt = toSdkPrompt('', messages(PNG), 'anthropic');
    expect(prompt.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    const results = prompt[2]!.content as { output: unknown }[];
    expect(results[0]?.output).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: '[image image/png, 9 bytes]' },
        { type: 'file', data: { type: 'data', data: PNG }, mediaType: 'image/png' },
      ],
    });
    expect(results[1]?.output).toEqual({ type: 'text', value: 'hi' });
  });

  it('follow all of the step’s results as one user message for OpenAI', () => {
    const prompt = toSdkPrompt('', messages(PNG), 'openai');
    expect(prompt.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user', 'user']);
    expect((prompt[2]!.content as { output: unknown }[])[0]?.output).toEqual({
      type: 'text',
      value: '[image image/png, 9 bytes]',
    });
    expect(prompt[3]!.content).toEqual([
      { type: 'text', text: 'The images mcp__s__shot (call a) returned:' },
      { type: 'file', data: { type: 'data', data: PNG }, mediaType: 'image/png' },
    ]);
  });

  it('stay the text naming them for a compat model', () => {
    const prompt = toSdkPrompt('', messages(PNG), 'compat');
    expect(prompt.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(JSON.stringify(prompt)).not.toContain('"type":"file"');
  });

  it('become a note when their bytes could not be read', () => {
    const prompt = toSdkPrompt('', messages(), 'anthropic');
    expect(JSON.stringify(prompt[2]!.content)).toContain('[An image (image/png) was here but could not be read.]');
  });
});
