import { FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatchHunk } from 'diff';
import { LineCursor } from './line-index.ts';
import type { Replacement } from './patch-edits.ts';
import type { TextReader } from './patched-text.ts';

// The unified diff of a patch and its statistics. The replacements say exactly which lines
// changed, so jsdiff only diffs those regions (each with its context) instead of the whole file:
// a few edits in a 50 000-line file cost what the edited lines cost. Hunks of one region are
// shifted to the region's place in the file and formatted by jsdiff as one patch.

export interface DiffSummary {
  diff: string;
  added: number;
  removed: number;
  hunks: number;
}

export const DIFF_CONTEXT = 3;
/** Beyond this edit distance in one region jsdiff gives up and the region is shown as replaced whole. */
export const MAX_EDIT_LENGTH = 1000;

export interface DiffOptions {
  context?: number;
  maxEditLength?: number;
}

/** A stretch of whole lines: [oldStart, oldEnd) of the original, [newStart, newEnd) of the result. */
interface Region {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

export function diffReplacements(
  name: string,
  original: string,
  result: TextReader,
  replacements: readonly Replacement[],
  options: DiffOptions = {},
): DiffSummary {
  const context = options.context ?? DIFF_CONTEXT;
  const maxEditLength = options.maxEditLength ?? MAX_EDIT_LENGTH;
  const hunks: StructuredPatchHunk[] = [];
  // Lines the clusters so far added (removed when negative): the text between them is the same on
  // both sides, so a line's number in the result is its number in the original shifted by this.
  let lineShift = 0;
  for (const region of clusters(changedRegions(original, result, replacements), original, context)) {
    // Widen to the context lines; the text outside the regions is the same on both sides.
    const widened = contextAround(original, region.oldStart, region.oldEnd, context);
    const before = region.oldStart - widened.start;
    const after = widened.end - region.oldEnd;
    const oldText = original.slice(widened.start, widened.end);
    const newText = result.slice(region.newStart - before, region.newEnd + after);
    const oldShift = region.line - widened.linesBefore;
    const newShift = oldShift + lineShift;
    lineShift += newlines(newText, before, newText.length - after) - newlines(original, region.oldStart, region.oldEnd);
    const patch = structuredPatch(name, name, oldText, newText, undefined, undefined, {
      context,
      stripTrailingCr: true,
      maxEditLength,
    });
    const regionHunks = patch?.hunks ?? [replacedWhole(oldText, newText, before, after)];
    for (const hunk of regionHunks)
      hunks.push({ ...hunk, oldStart: hunk.oldStart + oldShift, newStart: hunk.newStart + newShift });
  }
  let added = 0;
  let removed = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
    }
  }
  const diff =
    hunks.length === 0
      ? ''
      : formatPatch(
          { oldFileName: name, newFileName: name, oldHeader: undefined, newHeader: undefined, hunks },
          FILE_HEADERS_ONLY,
        );
  return { diff, added, removed, hunks: hunks.length };
}

/**
 * The replacements widened to whole lines on both sides. Replacements sharing a line become one
 * region, and a region whose new text runs into the next line (a replacement of "a\n" by "x")
 * takes that line too, so each region starts and ends at a line break in both texts.
 */
function changedRegions(original: string, result: TextReader, replacements: readonly Replacement[]): Region[] {
  const regions: Region[] = [];
  const lineEnd = (offset: number): number =>
    offset > 0 && original.charCodeAt(offset - 1) === 10 ? offset : nextLineStart(original, offset);
  let shift = 0;
  let index = 0;
  while (index < replacements.length) {
    const first = replacements[index];
    if (!first) break;
    const oldStart = first.start === 0 ? 0 : original.lastIndexOf('\n', first.start - 1) + 1;
    const newStart = oldStart + shift;
    let oldEnd = lineEnd(first.end);
    shift += first.text.length - (first.end - first.start);
    index += 1;
    for (;;) {
      const next = replacements[index];
      if (next && next.start < oldEnd) {
        oldEnd = Math.max(oldEnd, lineEnd(next.end));
        shift += next.text.length - (next.end - next.start);
        index += 1;
        continue;
      }
      const newEnd = oldEnd + shift;
      if (newEnd > 0 && newEnd < result.length && result.charCodeAt(newEnd - 1) !== 10 && oldEnd < original.length) {
        oldEnd = nextLineStart(original, oldEnd);
        continue;
      }
      regions.push({ oldStart, oldEnd, newStart, newEnd });
      break;
    }
  }
  return regions;
}

function nextLineStart(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline === -1 ? text.length : newline + 1;
}

/** A cluster of regions and the 0-based line it starts on. */
interface Cluster extends Region {
  line: number;
}

/**
 * Regions close enough to share context lines are diffed together, as jsdiff would join their
 * hunks. Their line numbers come from one walk over the text up to the last region.
 */
function clusters(regions: Region[], original: string, context: number): Cluster[] {
  const lines = new LineCursor(original);
  const joined: Cluster[] = [];
  let lastEnd = 0;
  for (const region of regions) {
    const line = lines.lineOf(region.oldStart);
    const last = joined[joined.length - 1];
    if (last && line - lastEnd <= 2 * context) {
      last.oldEnd = region.oldEnd;
      last.newEnd = region.newEnd;
    } else {
      joined.push({ ...region, line });
    }
    lastEnd = lines.lineOf(region.oldEnd);
  }
  return joined;
}

/**
 * Up to `context` whole lines before `start` (a line start) and after `end` (a line start or the
 * text's end), found by walking from the region, and how many lines were taken before it.
 */
function contextAround(
  text: string,
  start: number,
  end: number,
  context: number,
): { start: number; end: number; linesBefore: number } {
  let from = start;
  let linesBefore = 0;
  while (linesBefore < context && from > 0) {
    from = from < 2 ? 0 : text.lastIndexOf('\n', from - 2) + 1;
    linesBefore += 1;
  }
  let to = end;
  for (let taken = 0; taken < context && to < text.length; taken += 1) {
    const newline = text.indexOf('\n', to);
    to = newline === -1 || newline + 1 >= text.length ? text.length : newline + 1;
  }
  return { start: from, end: to, linesBefore };
}

function newlines(text: string, start: number, end: number): number {
  let count = 0;
  for (let index = text.indexOf('\n', start); index !== -1 && index < end; index = text.indexOf('\n', index + 1))
    count += 1;
  return count;
}

/**
 * A region too different for jsdiff's bounded search: every old line removed, every new line
 * added, between the unchanged context lines. Positions are 1-based within the region's text.
 */
function replacedWhole(oldText: string, newText: string, before: number, after: number): StructuredPatchHunk {
  const head = splitLines(oldText.slice(0, before));
  const tail = splitLines(oldText.slice(oldText.length - after));
  const removed = splitLines(oldText.slice(before, oldText.length - after));
  const added = splitLines(newText.slice(before, newText.length - after));
  const lines = [
    ...head.lines.map((line) => ` ${line}`),
    ...removed.lines.map((line) => `-${line}`),
    ...(tail.lines.length === 0 && removed.lines.length > 0 && !removed.endsWithNewline ? [NO_NEWLINE] : []),
    ...added.lines.map((line) => `+${line}`),
    ...(tail.lines.length === 0 && added.lines.length > 0 && !added.endsWithNewline ? [NO_NEWLINE] : []),
    ...tail.lines.map((line) => ` ${line}`),
    ...(tail.lines.length > 0 && !tail.endsWithNewline ? [NO_NEWLINE] : []),
  ];
  const context = head.lines.length + tail.lines.length;
  return {
    oldStart: 1,
    oldLines: context + removed.lines.length,
    newStart: 1,
    newLines: context + added.lines.length,
    lines,
  };
}

const NO_NEWLINE = '\\ No newline at end of file';

function splitLines(text: string): { lines: string[]; endsWithNewline: boolean } {
  if (text.length === 0) return { lines: [], endsWithNewline: true };
  const endsWithNewline = text.endsWith('\n');
  const lines = (endsWithNewline ? text.slice(0, -1) : text)
    .split('\n')
    .map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  return { lines, endsWithNewline };
}

/** One replacement from the first character that differs to the last. */
export function changedStretch(before: string, after: string): Replacement {
  const shorter = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix += 1;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  )
    suffix += 1;
  return { start: prefix, end: before.length - suffix, text: after.slice(prefix, after.length - suffix), edit: 0 };
}
