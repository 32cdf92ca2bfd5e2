import type { EchoDiff, WriteEcho } from '../../../protocol/echo.ts';
import type { WriteFileResult } from '../../../protocol/tools.ts';
import { LinePrefix } from './line-prefix.ts';
import { changedStretch, diffReplacements } from './patch-diff.ts';
import { PAGE_BUDGET } from './read-file.ts';

// What write_file's card shows: a new file's first page, numbered by the card, or the diff of an
// overwrite. Both are bounded like a read_file page (2000 lines, the page's bytes, long lines cut
// as read_file cuts them), so a 50 MB write costs the card what a page costs.

export function writeEcho(result: WriteFileResult, content: string): WriteEcho {
  const base = { kind: 'write' as const, path: result.path, created: result.created, bytes: result.bytes };
  if (result.created) return { ...base, content: firstPage(content) };
  return result.change ? { ...base, change: result.change } : base;
}

/** The text from line 1, as much as a read_file page holds. */
export function firstPage(text: string): NonNullable<WriteEcho['content']> {
  const shown: string[] = [];
  let bytes = 0;
  let lines = 0;
  let truncated = false;
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const stop = newline === -1 ? text.length : newline + 1;
    lines += 1;
    if (!truncated) {
      const line = new LinePrefix();
      line.add(Buffer.from(text.slice(start, stop), 'utf8'));
      const page = line.shown();
      const cost = Buffer.byteLength(page);
      if (shown.length >= PAGE_BUDGET.lines || (shown.length > 0 && bytes + cost > PAGE_BUDGET.bytes)) truncated = true;
      else {
        shown.push(page);
        bytes += cost;
      }
    }
    start = stop;
  }
  return { text: shown.join(''), total_lines: lines, truncated };
}

/**
 * The unified diff from `before` to `after`: one region from the first changed character to the last
 * (patch_file's diff of one replacement), then cut to a page's bytes and lines.
 */
export function overwriteChange(name: string, before: string, after: string): EchoDiff {
  const replacement = changedStretch(before, after);
  if (replacement.start === replacement.end && replacement.text === '')
    return { diff: '', added: 0, removed: 0, hunks: 0 };
  const summary = diffReplacements(name, before, after, [replacement]);
  const page = firstPage(summary.diff);
  return page.truncated ? { ...summary, diff: page.text, cut: true } : summary;
}
