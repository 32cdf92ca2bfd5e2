import { describe, expect, it } from 'vitest';
import { encodedChunks, REFERRED_MIN_CHARS, SentTexts } from './request-texts.ts';
import type { ChatMessage } from './types.ts';
import { request, runStep, useHarness, WIRE_CASES } from '../../test/model-support.ts';

// Long texts travel to the provider spliced into the SDK's body as it streams out
// (request-texts.ts): over real HTTP, every wire must receive each text exactly as written, in a
// plain body of the stated length.

const start = useHarness();

/** Long enough to be referred to, and holding what JSON must escape or encode. */
function longText(label: string): string {
  const tricky = `"quoted" back\\slash\nnew line\ttab \u0001 control é ü 漢字 🙂 </script> aether-text-0000-0; `;
  return `${label}: ${tricky.repeat(Math.ceil(REFERRED_MIN_CHARS / tricky.length) + 2)}`;
}

function stringsIn(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, into);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) stringsIn(item, into);
  return into;
}

describe.each(WIRE_CASES)('$label wire', (wireCase) => {
  it('sends long texts exactly as written, in a body of the stated length', async () => {
    const { server, adapter } = await start(wireCase, { steps: [{ text: ['ok'] }] });
    const system = longText('system');
    const asked = longText('the person');
    const result = longText('a read');
    const failure = longText('a failed read');
    const messages: ChatMessage[] = [
      { role: 'user', content: asked },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { call_id: 'call_1', name: 'read_file', args: { path: 'a.txt' } },
          { call_id: 'call_2', name: 'read_file', args: { path: 'b.txt' } },
        ],
      },
      { role: 'tool', call_id: 'call_1', name: 'read_file', content: result, is_error: false },
      { role: 'tool', call_id: 'call_2', name: 'read_file', content: failure, is_error: true },
      { role: 'user', content: 'short' },
    ];
    const outcome = await runStep(adapter, request(messages, { system }));
    expect(outcome.error).toBeUndefined();
    expect(outcome.text).toBe('ok');

    const sent = server.requests[0]!;
    const strings = stringsIn(sent.body);
    for (const text of [system, asked, result, failure])
      expect(strings.some((value) => value.includes(text))).toBe(true);
    expect(strings.filter((value) => /aether-text-[0-9a-f]{16}-/.test(value))).toEqual([]);
    expect(sent.headers['transfer-encoding']).toBeUndefined();
    expect(Number(sent.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(sent.body), 'utf8'));
  });
});

describe.each(WIRE_CASES)('$label wire, step after step', (wireCase) => {
  it('sends a text the step before sent, and a new one, each exactly as written', async () => {
    const { server, adapter } = await start(wireCase, { steps: [{ text: ['one'] }, { text: ['two'] }] });
    const first = longText('the first read');
    const second = longText('the second read');
    const call = (id: string): ChatMessage => ({
      role: 'assistant',
      content: '',
      tool_calls: [{ call_id: id, name: 'read_file', args: { path: `${id}.txt` } }],
    });
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Read them.' },
      call('call_1'),
      { role: 'tool', call_id: 'call_1', name: 'read_file', content: first, is_error: false },
    ];
    expect((await runStep(adapter, request(messages))).text).toBe('one');
    messages.push(call('call_2'), {
      role: 'tool',
      call_id: 'call_2',
      name: 'read_file',
      content: second,
      is_error: false,
    });
    expect((await runStep(adapter, request(messages))).text).toBe('two');

    const [before, after] = server.requests;
    expect(stringsIn(before!.body).filter((value) => value.includes(first))).toHaveLength(1);
    const strings = stringsIn(after!.body);
    expect(strings.filter((value) => value.includes(first))).toHaveLength(1);
    expect(strings.filter((value) => value.includes(second))).toHaveLength(1);
    expect(Number(after!.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(after!.body), 'utf8'));
  });
});

describe('SentTexts', () => {
  it('reuses the serialised form of a text the last request sent, and keeps no older one', () => {
    const sent = new SentTexts();
    const kept = 'a result sent at every step until it ages, "quoted"\n'.repeat(4);
    const dropped = 'a result only the first request sent';
    const first = sent.serialised(kept);
    expect(first).toEqual({ json: JSON.stringify(kept), bytes: Buffer.byteLength(JSON.stringify(kept)) });
    const once = sent.serialised(dropped);
    sent.built();
    // The next request: the same text (an equal string too) is not serialised again.
    expect(sent.serialised(kept)).toBe(first);
    expect(sent.serialised(kept.slice(0, 10) + kept.slice(10))).toBe(first);
    sent.built();
    // The request after it did not send `dropped`: it is serialised anew, and equal to what it was.
    const again = sent.serialised(dropped);
    expect(again).not.toBe(once);
    expect(again).toEqual(once);
    expect(sent.serialised('é漢🙂').bytes).toBe(Buffer.byteLength(JSON.stringify('é漢🙂')));
  });
});

describe('encodedChunks', () => {
  it('writes the parts as their UTF-8 bytes in chunks of 64 KiB, never splitting a character', () => {
    // Characters of 1 to 4 bytes, placed so that some straddle each chunk's end.
    const parts = ['{"a":', `"${'é漢🙂x'.repeat(30_000)}"`, ',"b":', `"${'x'.repeat(65_535)}🙂"`, '}'];
    const chunks = [...encodedChunks(parts)];
    const whole = Buffer.from(parts.join(''), 'utf8');
    expect(Buffer.concat(chunks).equals(whole)).toBe(true);
    expect(chunks.length).toBeGreaterThan(3);
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThanOrEqual(64 * 1024);
    // Each chunk decodes on its own: no character's bytes are split between two.
    const decoder = new TextDecoder('utf-8', { fatal: true });
    expect(chunks.map((chunk) => decoder.decode(chunk)).join('')).toBe(parts.join(''));
  });
});
