import { diffArrays } from 'diff';

// Which stretches of lines differ between two versions of a file, in time that stays near-linear
// however different they are. Small regions go to jsdiff's Myers diff (the fewest changed lines);
// large ones are first matched on the lines that occur exactly once on each side — the longest run
// of them in the same order, grown over the equal lines around each (patience diff) — and only
// the gaps between those anchors are diffed, each bounded; a gap too different is one block.

/** [oldStart, oldEnd) of the old lines replaced by [newStart, newEnd) of the new. */
export interface Block {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/** Regions up to this many lines (both sides) go to Myers directly. */
const MYERS_LINES = 4000;
/** Myers gives up beyond this edit distance (its cost is lines × distance). */
const MYERS_EDITS = 2000;
/** The edit distance a long region is first tried with, before anchoring. */
const QUICK_EDITS = 64;

export function changedBlocks(before: readonly string[], after: readonly string[]): Block[] {
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < before.length - prefix &&
    suffix < after.length - prefix &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  )
    suffix += 1;
  const region = { oldStart: prefix, oldEnd: before.length - suffix, newStart: prefix, newEnd: after.length - suffix };
  return regionBlocks(before, after, region);
}

/** The blocks of a region, whose first and last lines may differ. */
function regionBlocks(before: readonly string[], after: readonly string[], region: Block): Block[] {
  const { oldStart, oldEnd, newStart, newEnd } = region;
  if (oldStart === oldEnd && newStart === newEnd) return [];
  if (oldStart === oldEnd || newStart === newEnd || size(region) <= MYERS_LINES)
    return gapBlocks(before, after, region);
  // A few edits in a long region are cheapest to find directly (cost: lines × QUICK_EDITS at most).
  const quick = myersBlocks(before, after, region, QUICK_EDITS);
  if (quick) return quick;
  const anchors = anchorPairs(before, after, region);
  if (anchors.length === 0) return [{ ...region }];
  const blocks: Block[] = [];
  let lastA = oldStart;
  let lastB = newStart;
  for (const [i, j] of [...anchors, [oldEnd, newEnd] as const]) {
    if (i > lastA || j > lastB)
      blocks.push(...gapBlocks(before, after, { oldStart: lastA, oldEnd: i, newStart: lastB, newEnd: j }));
    lastA = i + 1;
    lastB = j + 1;
  }
  return blocks;
}

/** Lines on both sides of a region. */
const size = (region: Block): number => region.oldEnd - region.oldStart + (region.newEnd - region.newStart);

/** A region not worth anchoring (or a gap between anchors): Myers when small enough, else the region whole. */
function gapBlocks(before: readonly string[], after: readonly string[], region: Block): Block[] {
  const whole = [{ ...region }];
  if (region.oldStart === region.oldEnd || region.newStart === region.newEnd || size(region) > MYERS_LINES)
    return whole;
  return myersBlocks(before, after, region) ?? whole;
}

function myersBlocks(
  before: readonly string[],
  after: readonly string[],
  region: Block,
  maxEditLength = MYERS_EDITS,
): Block[] | null {
  const { oldStart, oldEnd, newStart, newEnd } = region;
  const changes = diffArrays(before.slice(oldStart, oldEnd), after.slice(newStart, newEnd), { maxEditLength });
  if (!changes) return null;
  const blocks: Block[] = [];
  let oldAt = oldStart;
  let newAt = newStart;
  for (const change of changes) {
    const count = change.value.length;
    if (!change.added && !change.removed) {
      oldAt += count;
      newAt += count;
      continue;
    }
    let last = blocks.at(-1);
    if (!last || last.oldEnd !== oldAt || last.newEnd !== newAt) {
      last = { oldStart: oldAt, oldEnd: oldAt, newStart: newAt, newEnd: newAt };
      blocks.push(last);
    }
    if (change.removed) last.oldEnd = oldAt += count;
    else last.newEnd = newAt += count;
  }
  return blocks;
}

/**
 * Equal line pairs (old index, new index), increasing on both sides: the lines unique on each side
 * in their longest common order, each grown backward and forward over equal neighbours.
 */
function anchorPairs(before: readonly string[], after: readonly string[], region: Block): [number, number][] {
  const { oldStart: a0, oldEnd: a1, newStart: b0, newEnd: b1 } = region;
  const seen = new Map<string, { old: number; new: number; at: number }>();
  for (let i = a0; i < a1; i += 1) {
    const entry = seen.get(before[i]!) ?? { old: 0, new: 0, at: -1 };
    entry.old += 1;
    seen.set(before[i]!, entry);
  }
  for (let j = b0; j < b1; j += 1) {
    const entry = seen.get(after[j]!);
    if (!entry) continue;
    entry.new += 1;
    entry.at = j;
  }
  const unique: [number, number][] = [];
  for (let i = a0; i < a1; i += 1) {
    const entry = seen.get(before[i]!)!;
    if (entry.old === 1 && entry.new === 1) unique.push([i, entry.at]);
  }
  const ordered = longestIncreasing(unique);
  const pairs: [number, number][] = [];
  let lastA = a0 - 1;
  let lastB = b0 - 1;
  ordered.forEach(([i, j], index) => {
    const next = ordered[index + 1] ?? [a1, b1];
    if (i <= lastA || j <= lastB) return;
    // Backward over equal lines not matched yet, then the anchor, then forward to the next anchor.
    let back = 0;
    while (i - back - 1 > lastA && j - back - 1 > lastB && before[i - back - 1] === after[j - back - 1]) back += 1;
    for (let k = back; k > 0; k -= 1) pairs.push([i - k, j - k]);
    pairs.push([i, j]);
    let x = i + 1;
    let y = j + 1;
    while (x < next[0] && y < next[1] && before[x] === after[y]) pairs.push([x++, y++]);
    lastA = x - 1;
    lastB = y - 1;
  });
  return pairs;
}

/** The longest subsequence of pairs (increasing in the first) whose second values increase. */
function longestIncreasing(pairs: readonly [number, number][]): [number, number][] {
  const tails: number[] = [];
  const previous = new Int32Array(pairs.length).fill(-1);
  pairs.forEach(([, j], index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (pairs[tails[middle]!]![1] < j) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[index] = tails[low - 1]!;
    tails[low] = index;
  });
  const result: [number, number][] = [];
  for (let index = tails.at(-1) ?? -1; index !== -1; index = previous[index]!) result.push(pairs[index]!);
  return result.reverse();
}
