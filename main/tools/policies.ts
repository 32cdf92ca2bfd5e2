import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatBytes } from '../../protocol/format.ts';
import { errorMessage } from '../../protocol/errors.ts';

// Post-execution policies. Each sees the final model-facing content of one call and may replace
// it; the registry runs them in order after a successful render (and on error content too, so a
// long error spills like any other output).

export interface PostPolicyInput {
  callId: string;
  name: string;
  args: unknown;
  content: string;
  isError: boolean;
  sessionDir: string;
  /** The tool pages its own output within the limits (see ToolDefinition.pagesItself). */
  pagesItself?: boolean;
}

export interface PostPolicyOutcome {
  content: string;
  isError: boolean;
}

/** A policy answers at once when it has nothing to do (most results), with a promise when it works. */
export type PostPolicy = (input: PostPolicyInput) => PostPolicyOutcome | Promise<PostPolicyOutcome>;

/** Replaces a result with error content when `reason` names one. */
export function blockPolicy(reason: (input: PostPolicyInput) => string | null | undefined): PostPolicy {
  return (input) => {
    const why = reason(input);
    return why ? { content: `Blocked: ${why}`, isError: true } : { content: input.content, isError: input.isError };
  };
}

export interface SpillLimits {
  maxLines: number;
  maxBytes: number;
  /** Lines kept from each end in the preview. */
  previewLines: number;
  /** Bytes kept from each end in the preview. */
  previewBytes: number;
}

export const DEFAULT_SPILL_LIMITS: SpillLimits = {
  maxLines: 2000,
  maxBytes: 50 * 1024,
  previewLines: 200,
  previewBytes: 12 * 1024,
};

export const SPILL_FOLDER = 'tool-output';

export function spillPath(sessionDir: string, callId: string): string {
  return path.join(sessionDir, SPILL_FOLDER, `${callId.replace(/[^\w.-]/g, '_')}.txt`);
}

/** Content over the limits goes whole to a 0600 file; the model gets head + tail and the path. */
export function spillPolicy(limits: SpillLimits = DEFAULT_SPILL_LIMITS): PostPolicy {
  return (input) => {
    const { content } = input;
    if (input.pagesItself) return { content, isError: input.isError };
    // A UTF-16 unit is at most 3 UTF-8 bytes, and there are never more lines than units: a short
    // text is within both limits without counting either.
    if (content.length * 3 <= limits.maxBytes && content.length <= limits.maxLines)
      return { content, isError: input.isError };
    const bytes = Buffer.byteLength(content);
    const lines = countLines(content);
    if (bytes <= limits.maxBytes && lines <= limits.maxLines) return { content, isError: input.isError };
    return spill(input, limits, bytes, lines);
  };
}

async function spill(
  input: PostPolicyInput,
  limits: SpillLimits,
  bytes: number,
  lines: number,
): Promise<PostPolicyOutcome> {
  const { content } = input;
  const file = spillPath(input.sessionDir, input.callId);
  // A file that cannot be written loses only the middle: the model still gets head and tail.
  const unsaved = await saveSpill(file, content).then(
    () => null,
    (error: unknown) => errorMessage(error),
  );

  const head = headOf(content, limits.previewLines, limits.previewBytes);
  const tail = tailOf(content.slice(head.length), limits.previewLines, limits.previewBytes);
  const headLines = countLines(head);
  const tailLines = countLines(tail);
  const cutBytes = bytes - Buffer.byteLength(head) - Buffer.byteLength(tail);
  const firstTailLine = lines - tailLines + 1;
  const cut = `[… ${Math.max(lines - headLines - tailLines, 0)} lines (${formatBytes(cutBytes)}) cut from this output of ${lines} lines (${formatBytes(bytes)}). `;
  const note =
    unsaved === null
      ? `${cut}The complete output is in ${file}. Read it with read_file {"path": ${JSON.stringify(file)}, "offset": ${headLines + 1}}` +
        ` (the tail starts at line ${firstTailLine}), or search it with search_files.]`
      : `${cut}The complete output could not be saved (${unsaved}); only this head and tail are left.]`;
  return { content: `${head}${head.endsWith('\n') ? '' : '\n'}${note}\n${tail}`, isError: input.isError };
}

async function saveSpill(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, content, { mode: 0o600 });
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let count = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count += 1;
  return text.endsWith('\n') ? count - 1 : count;
}

/** The first `maxLines` lines within `maxBytes` (approximated by UTF-16 units, never over bytes). */
function headOf(text: string, maxLines: number, maxBytes: number): string {
  let end = 0;
  for (let line = 0; line < maxLines; line += 1) {
    const next = text.indexOf('\n', end);
    const stop = next === -1 ? text.length : next + 1;
    if (Buffer.byteLength(text.slice(0, stop)) > maxBytes) break;
    end = stop;
    if (next === -1) break;
  }
  if (end === 0) return sliceBytes(text, maxBytes);
  return text.slice(0, end);
}

function tailOf(text: string, maxLines: number, maxBytes: number): string {
  let start = text.length;
  const body = text.endsWith('\n') ? text.length - 1 : text.length;
  let cursor = body;
  for (let line = 0; line < maxLines && cursor > 0; line += 1) {
    const previous = text.lastIndexOf('\n', cursor - 1);
    const from = previous + 1;
    if (Buffer.byteLength(text.slice(from)) > maxBytes) break;
    start = from;
    cursor = previous;
    if (previous === -1) break;
  }
  if (start === text.length && text.length > 0) return sliceBytesFromEnd(text, maxBytes);
  return text.slice(start);
}

/** The longest suffix of whole characters within `maxBytes` UTF-8 bytes. */
function sliceBytesFromEnd(text: string, maxBytes: number): string {
  let chunk = text.slice(-maxBytes);
  if (/^[\udc00-\udfff]/.test(chunk)) chunk = chunk.slice(1);
  const buffer = Buffer.from(chunk);
  if (buffer.length <= maxBytes) return chunk;
  let start = buffer.length - maxBytes;
  while (start < buffer.length && (buffer[start]! & 0xc0) === 0x80) start += 1;
  return buffer.subarray(start).toString();
}

/** The longest prefix of whole characters within `maxBytes` UTF-8 bytes. */
function sliceBytes(text: string, maxBytes: number): string {
  const buffer = Buffer.from(text.slice(0, maxBytes));
  if (buffer.length <= maxBytes) return buffer.toString();
  let end = maxBytes;
  while (end > 0 && (buffer[end]! & 0xc0) === 0x80) end -= 1;
  return buffer.subarray(0, end).toString();
}
