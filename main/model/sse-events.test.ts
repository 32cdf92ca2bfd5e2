import { expect, it } from 'vitest';
import { knownEventTest, SseEventFilter } from './sse-events.ts';
import { MODEL_PROVIDERS } from './providers.ts';

function run(filter: SseEventFilter, chunks: string[]): string {
  const decoder = new TextDecoder();
  let out = '';
  for (const chunk of chunks) out += decoder.decode(filter.push(new TextEncoder().encode(chunk)), { stream: true });
  return out + decoder.decode(filter.end());
}

it('passes known events whole when they arrive split anywhere, with CRLF line ends, dropping unknown ones', () => {
  const wire =
    'event: message_start\r\ndata: {"type":"message_start"}\r\n\r\n' +
    ': keep-alive\r\n\r\n' +
    'event: brand_new\r\ndata: {"type":"brand_new"}\r\n\r\n' +
    'event: message_stop\r\ndata: {"type":"message_stop"}\r\n\r\n';
  const expected =
    'event: message_start\ndata: {"type":"message_start"}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n';
  for (let size = 1; size <= wire.length; size += 7) {
    const chunks: string[] = [];
    for (let at = 0; at < wire.length; at += size) chunks.push(wire.slice(at, at + size));
    expect(run(new SseEventFilter(knownEventTest(MODEL_PROVIDERS.anthropic.streamEvents), 'test'), chunks)).toBe(
      expected,
    );
  }
});

it('passes a last event the stream ends without a blank line after', () => {
  const filter = new SseEventFilter(knownEventTest(MODEL_PROVIDERS.openai.streamEvents), 'test');
  expect(run(filter, ['data: {"choices":[]}\n\n', 'data: [DONE]'])).toBe('data: {"choices":[]}\n\ndata: [DONE]\n\n');
});
