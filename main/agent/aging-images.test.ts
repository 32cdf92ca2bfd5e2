import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../model/token-estimate.ts';
import type { ChatImage, ChatMessage } from '../model/types.ts';
import { agedImagesNote, ageToolResults, DEFAULT_AGING } from './aging.ts';

/** Aging at every step, the block left out: which messages age. */
const everyStep = { ...DEFAULT_AGING, blockChars: 0 };

// Old images age out of a request like old tool output: a tool result's or the person's images from
// before the last four steps are left out, and a note naming each (type and hash) stands where
// they were; newer images are sent as they are.

const shot = (seed: string): ChatImage => ({ sha256: seed.repeat(64).slice(0, 64), media_type: 'image/png' });

function step(index: number, images: ChatImage[] = []): ChatMessage[] {
  const id = `c${index}`;
  return [
    { role: 'assistant', content: '', tool_calls: [{ call_id: id, name: 'mcp__x__shot', args: {} }] },
    { role: 'tool', call_id: id, name: 'mcp__x__shot', content: 'a small result', is_error: false, images },
  ];
}

const session: ChatMessage[] = [
  { role: 'user', content: 'Look at this.', images: [shot('a')] },
  ...step(1, [shot('b'), shot('c')]),
  ...step(2),
  ...step(3),
  ...step(4),
  ...step(5, [shot('d')]),
];

describe('aging images', () => {
  it('leaves out the images of messages older than four steps, naming each in a note', () => {
    const sent = ageToolResults(session, everyStep);
    expect(sent[0]).toEqual({
      role: 'user',
      content:
        'Look at this.\n[The image here (image/png aaaaaaaaaaaa) left out of the context to save room; ask the person to attach it again if you need to see it.]',
    });
    const old = sent[2];
    expect(old).toMatchObject({ role: 'tool', call_id: 'c1' });
    expect(old && 'images' in old).toBe(false);
    expect(old?.content).toBe(
      'a small result\n[The 2 images here (image/png bbbbbbbbbbbb, image/png cccccccccccc) left out of the context to save room; call mcp__x__shot again if you need to see them.]',
    );
    // The newest step's image goes as it is; the session's own messages are untouched.
    expect(sent.at(-1)).toBe(session.at(-1));
    expect(session[2]).toMatchObject({ images: [shot('b'), shot('c')] });
  });

  it('sends the same aged message object each time, so the request is byte-identical and counted once', () => {
    const first = ageToolResults(session, everyStep);
    const second = ageToolResults(session, everyStep);
    expect(second[2]).toBe(first[2]);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });

  it('takes the aged images out of the estimate', () => {
    const request = { system: '', tools: [] };
    const whole = estimateTokens({ ...request, messages: session });
    const aged = estimateTokens({ ...request, messages: ageToolResults(session, everyStep) });
    // Three images left out at 1 600 each, a note of some tens of tokens for each message.
    expect(whole - aged).toBeGreaterThan(3 * 1_600 - 200);
    expect(whole - aged).toBeLessThan(3 * 1_600);
  });

  it('keeps every image while there are no more than four steps', () => {
    const recent = [session[0]!, ...step(1, [shot('e')])];
    expect(ageToolResults(recent, everyStep)).toEqual(recent);
    expect(agedImagesNote(recent[2]!)).toContain('call mcp__x__shot again');
  });
});
