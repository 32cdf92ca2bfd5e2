import { describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { reduceStatusEvents } from '../store/transcript-reducer.ts';
import { emptyTranscript } from '../store/transcript-types.ts';
import { findHits, stepHit } from './find-matches.ts';

const transcript = reduceStatusEvents(emptyTranscript(), [
  { type: 'user_message', turn_id: 't1', text: 'Find the Needle please' },
  { type: 'tool_started', call_id: 'c1', name: 'exec', args: { command: 'grep needle src' }, turn_id: 't1' },
  {
    type: 'tool_completed',
    call_id: 'c1',
    name: 'exec',
    execution_time: 3,
    is_error: false,
    result: { kind: 'text', text: 'src/a.ts: needle; needle again' },
  },
  { type: 'assistant_message', turn_id: 't1', text: 'Nothing here.', tool_calls: [] },
] satisfies StatusEvent[]);

describe('findHits', () => {
  it('finds rows by their message text and by a card’s arguments and result, ignoring case', () => {
    const hits = findHits(transcript, 'NEEDLE');
    expect(hits.map((hit) => hit.item)).toEqual([
      { kind: 'message', id: 'user:t1' },
      { kind: 'call', id: 'c1' },
    ]);
    expect(hits.map((hit) => hit.index)).toEqual([0, 1]);
    // The command once, the output twice.
    expect(hits[1]?.count).toBe(3);
  });

  it('finds nothing for a blank query or text no row holds', () => {
    expect(findHits(transcript, '   ')).toEqual([]);
    expect(findHits(transcript, 'haystack')).toEqual([]);
  });
});

describe('stepHit', () => {
  it('wraps around both ways and starts at the first or last hit', () => {
    expect(stepHit(null, 3, 1)).toBe(0);
    expect(stepHit(null, 3, -1)).toBe(2);
    expect(stepHit(2, 3, 1)).toBe(0);
    expect(stepHit(0, 3, -1)).toBe(2);
    expect(stepHit(0, 0, 1)).toBeNull();
  });
});
