import type { TranscriptItem, TranscriptState } from '../store/transcript-types.ts';

// Find in the transcript searches the store, not the DOM: the list is virtualised, so a card
// scrolled out of view has no elements to search. A row matches when any text the person could see
// on it (a message, a card's title, subtitle, arguments, result or live output) holds the query.

/** One row that holds the query, with how many times it does. */
export interface FindHit {
  /** The row's index in `transcript.order`. */
  index: number;
  item: TranscriptItem;
  count: number;
}

/** The strings inside a value (an echo, arguments), depth-first, bounded so a huge echo stays cheap. */
function collectStrings(value: unknown, into: string[], depth = 0): void {
  if (depth > 8) return;
  if (typeof value === 'string') into.push(value);
  else if (typeof value === 'number') into.push(String(value));
  else if (Array.isArray(value)) for (const entry of value) collectStrings(entry, into, depth + 1);
  else if (value !== null && typeof value === 'object')
    for (const entry of Object.values(value as Record<string, unknown>)) collectStrings(entry, into, depth + 1);
}

/** The text of one row, as find searches it. */
export function rowText(transcript: TranscriptState, item: TranscriptItem): string {
  if (item.kind === 'message') {
    const message = transcript.messages[item.id];
    return message && 'text' in message ? message.text : '';
  }
  const call = transcript.calls[item.id];
  if (!call) return '';
  const parts: string[] = [call.name];
  collectStrings(call.description, parts);
  collectStrings(call.args, parts);
  collectStrings(call.echo, parts);
  if (call.progress) collectStrings(call.progress, parts);
  for (const nested of call.nested) {
    parts.push(nested.name);
    collectStrings(nested.description, parts);
    collectStrings(nested.echo ?? nested.content, parts);
  }
  return parts.join('\n');
}

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

/** Rows that hold `query` (case-insensitive), in transcript order; none for a blank query. */
export function findHits(transcript: TranscriptState, query: string): FindHit[] {
  const needle = query.trim().toLocaleLowerCase();
  if (needle === '') return [];
  const hits: FindHit[] = [];
  transcript.order.forEach((item, index) => {
    const count = countOccurrences(rowText(transcript, item).toLocaleLowerCase(), needle);
    if (count > 0) hits.push({ index, item, count });
  });
  return hits;
}

/** The hit after (step 1) or before (step -1) `current`, wrapping around; 0 when there is none yet. */
export function stepHit(current: number | null, total: number, step: 1 | -1): number | null {
  if (total === 0) return null;
  if (current === null) return step === 1 ? 0 : total - 1;
  return (current + step + total) % total;
}
