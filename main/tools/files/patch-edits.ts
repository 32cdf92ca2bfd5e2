import { LineIndex } from './line-index.ts';

// Matching patch_file's edits. Every edit is found in the ORIGINAL text (never in text an earlier
// edit produced), so the result does not depend on the order of the edits; the replacements are
// then spliced in one pass, so every byte outside the matched regions is kept as it was.
// Line endings are matched per line as the file has them: read_file cannot show a `\r`, so a line
// break in old_text matches LF or CRLF, and the new text's line breaks take the endings of the
// lines they replace. A patch never changes a file's line endings (write_file can).

export interface TextEdit {
  old_text: string;
  new_text: string;
  replace_all?: boolean | undefined;
}

/** One matched region of the original text and what replaces it. */
export interface Replacement {
  start: number;
  end: number;
  text: string;
  /** 0-based index of the edit it came from. */
  edit: number;
}

export type EditPlan = { ok: true; text: string; replacements: Replacement[] } | { ok: false; error: string };

const LISTED_MATCHES = 5;
const HINT_CHARS = 160;

export function planEdits(original: string, edits: readonly TextEdit[], shown: string): EditPlan {
  let lines: LineIndex | undefined;
  const lineAt = (offset: number): number => (lines ??= new LineIndex(original)).lineOf(offset) + 1;
  const replacements: Replacement[] = [];
  const everyMatch = matchesOfAll(
    original,
    edits.map((edit) => edit.old_text),
  );

  for (const [index, edit] of edits.entries()) {
    const label = edits.length > 1 ? `Edit ${index + 1} of ${edits.length}` : 'The edit';
    const overlapping = everyMatch[index] ?? [];
    const found = edit.replace_all === true ? disjoint(overlapping) : overlapping;
    if (found.length === 0) {
      return {
        ok: false,
        error: `${label}: old_text was not found in ${shown}.${closestHint(original, edit.old_text)} Copy old_text exactly as the file has it (read_file shows it), including whitespace.`,
      };
    }
    if (found.length > 1 && edit.replace_all !== true) {
      const listed = found
        .slice(0, LISTED_MATCHES)
        .map(({ start }) => lineAt(start))
        .join(', ');
      return {
        ok: false,
        error: `${label}: old_text matches ${found.length} places in ${shown} (lines ${listed}${found.length > LISTED_MATCHES ? ', …' : ''}). Include more surrounding lines so it matches exactly one place, or set replace_all: true to change all of them.`,
      };
    }
    for (const { start, end } of found)
      replacements.push({ start, end, text: withEndingsOf(original, start, end, edit.new_text), edit: index });
  }

  replacements.sort((a, b) => a.start - b.start);
  for (let index = 1; index < replacements.length; index += 1) {
    const previous = replacements[index - 1];
    const current = replacements[index];
    if (previous && current && current.start < previous.end) {
      const which =
        previous.edit === current.edit
          ? `Edit ${current.edit + 1} matches overlapping text`
          : `Edits ${previous.edit + 1} and ${current.edit + 1} overlap`;
      return { ok: false, error: `${which} at line ${lineAt(current.start)} of ${shown}. Merge them into one edit.` };
    }
  }

  // Concatenated, not joined: the engine keeps the pieces until the text is read whole, which a
  // patch of a UTF-8 file never does (patch-bytes.ts writes it, patched-text.ts diffs it).
  let text = '';
  let cursor = 0;
  for (const replacement of replacements) {
    text += original.slice(cursor, replacement.start) + replacement.text;
    cursor = replacement.end;
  }
  text += original.slice(cursor);
  if (text === original) {
    return {
      ok: false,
      error: `The edits change nothing in ${shown}: every new_text equals the text it replaces. Nothing was written.`,
    };
  }
  return { ok: true, text, replacements };
}

/** CRLF when most line breaks are CRLF. */
export function usesCrlf(text: string): boolean {
  const { crlf, lf } = lineEndingCounts(text);
  return crlf > lf;
}

/** How many lines end in CRLF and how many in a bare LF. */
export function lineEndingCounts(text: string): { crlf: number; lf: number } {
  let crlf = 0;
  let lf = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    if (index > 0 && text.charCodeAt(index - 1) === 13) crlf += 1;
    else lf += 1;
  }
  return { crlf, lf };
}

interface Match {
  start: number;
  end: number;
}

/**
 * Every place each needle occurs, overlapping ones included, each of its line breaks matching LF or
 * CRLF. One pass over the text finds the places where any needle starts (one regular expression of
 * them all), and only there is each needle tried: a file of megabytes is read once, not once per edit.
 */
function matchesOfAll(text: string, needles: readonly string[]): Match[][] {
  const found: Match[][] = needles.map(() => []);
  if (needles.length === 0) return found;
  const sources = needles.map((needle) => needle.split(/\r?\n/).map(escapeRegExp).join('\\r?\\n'));
  const anyNeedle = new RegExp(sources.join('|'), 'g');
  const each = needles.map((needle, index) => (/\r?\n/.test(needle) ? new RegExp(sources[index]!, 'y') : needle));
  for (let match = anyNeedle.exec(text); match !== null; match = anyNeedle.exec(text)) {
    const at = match.index;
    for (const [index, needle] of each.entries()) {
      if (typeof needle === 'string') {
        if (text.startsWith(needle, at)) found[index]!.push({ start: at, end: at + needle.length });
        continue;
      }
      needle.lastIndex = at;
      const hit = needle.exec(text);
      if (hit) found[index]!.push({ start: at, end: at + hit[0].length });
    }
    anyNeedle.lastIndex = at + 1;
  }
  return found;
}

/** The places replace_all changes: from the first, each one that starts after the last one taken. */
function disjoint(matches: readonly Match[]): Match[] {
  const taken: Match[] = [];
  for (const match of matches) {
    const last = taken[taken.length - 1];
    if (!last || match.start >= last.end) taken.push(match);
  }
  return taken;
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/**
 * `replacement` with line endings taken from the matched text `original[start, end)`: its n-th
 * line break gets the ending of the match's n-th one; breaks past those, or in a match without
 * any, get the ending of the last line the match touches (the file's usual one at its end).
 */
function withEndingsOf(original: string, start: number, end: number, replacement: string): string {
  const parts = replacement.split(/\r?\n/);
  if (parts.length === 1) return replacement;
  const matched: string[] = [];
  for (
    let index = original.indexOf('\n', start);
    index !== -1 && index < end;
    index = original.indexOf('\n', index + 1)
  )
    matched.push(index > start && original.charCodeAt(index - 1) === 13 ? '\r\n' : '\n');
  const lineEnd = original.indexOf('\n', Math.max(start, end - 1));
  const fallback =
    matched.at(-1) ??
    (lineEnd === -1 ? (usesCrlf(original) ? '\r\n' : '\n') : original.charCodeAt(lineEnd - 1) === 13 ? '\r\n' : '\n');
  return parts.reduce(
    (text, part, index) => (index === 0 ? part : `${text}${matched[index - 1] ?? fallback}${part}`),
    '',
  );
}

/** A hint for an edit that matched nothing: where its first line is, or the line most like it. */
function closestHint(original: string, needle: string): string {
  const firstLine = needle.split(/\r?\n/).find((line) => line.trim().length > 0);
  if (firstLine === undefined) return '';
  const first = firstLine.trim();
  const wanted = bigrams(first);
  const lines = original.split(/\r?\n/);
  let best = { line: -1, score: 0 };
  for (const [index, line] of lines.entries()) {
    const trimmed = line.trim();
    if (trimmed === first) {
      const where =
        line === firstLine
          ? 'exactly, so the difference is in the lines after it'
          : 'apart from indentation, so the difference is in the indentation or in the lines after it';
      return ` Its first line matches line ${index + 1} ${where}.`;
    }
    // Lines of very different length cannot be close; skipping them keeps this cheap.
    if (trimmed.length < first.length / 2 || trimmed.length > first.length * 2) continue;
    const score = similarity(wanted, trimmed);
    if (score > best.score) best = { line: index, score };
  }
  const closest = lines[best.line];
  if (closest === undefined || best.score < MIN_SIMILARITY) return '';
  const text = closest.trim();
  return ` The closest line is line ${best.line + 1}: ${JSON.stringify(text.length > HINT_CHARS ? `${text.slice(0, HINT_CHARS)}…` : text)}.`;
}

const MIN_SIMILARITY = 0.6;

function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let index = 0; index + 1 < text.length; index += 1) {
    const pair = text.slice(index, index + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

/** Dice's coefficient over character pairs: 1 for equal texts, 0 for texts sharing no pair. */
function similarity(wanted: Map<string, number>, text: string): number {
  const found = bigrams(text);
  let shared = 0;
  let wantedTotal = 0;
  let foundTotal = 0;
  for (const count of wanted.values()) wantedTotal += count;
  for (const [pair, count] of found) {
    foundTotal += count;
    shared += Math.min(count, wanted.get(pair) ?? 0);
  }
  return wantedTotal + foundTotal === 0 ? 0 : (2 * shared) / (wantedTotal + foundTotal);
}
