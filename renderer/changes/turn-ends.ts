import type { TranscriptState } from '../store/transcript-types.ts';

// Which transcript row ends a finished turn that made tool calls: the Changes card goes right after
// it. Computed once per change of the rows or turns (one pass), then read per row in O(1).

let cachedFor: { order: TranscriptState['order']; turns: TranscriptState['turns'] } | null = null;
let cached = new Map<string, string>();

/** Row key (`call:ID` or `message:ID`) → the id of the finished turn it ends. */
export function turnEnds(transcript: TranscriptState): ReadonlyMap<string, string> {
  if (cachedFor?.order === transcript.order && cachedFor.turns === transcript.turns) return cached;
  const ends = new Map<string, string>();
  const withCalls = new Set<string>();
  let previous: { key: string; turn: string } | null = null;
  const close = () => {
    if (!previous) return;
    const turn = transcript.turns[previous.turn];
    if (turn && turn.state !== 'running' && withCalls.has(previous.turn)) ends.set(previous.key, previous.turn);
  };
  for (const item of transcript.order) {
    const turn =
      item.kind === 'call' ? transcript.calls[item.id]?.turn_id : transcript.messages[item.id]?.turn_id || undefined;
    if (turn === undefined) continue;
    if (item.kind === 'call') withCalls.add(turn);
    if (previous && previous.turn !== turn) close();
    previous = { key: `${item.kind}:${item.id}`, turn };
  }
  close();
  cachedFor = { order: transcript.order, turns: transcript.turns };
  cached = ends;
  return ends;
}
