import { createHash } from 'node:crypto';
import { patchEchoSchema } from '../../../protocol/echo.ts';
import { patchFileResultSchema, type PatchFileResult } from '../../../protocol/tools.ts';
import { FileChangedError, writeFileAtomic } from './atomic-write.ts';
import { sha256Hex, shownPath } from './file-content.ts';
import { decodeText, encodeOrRefuse, encodingRefusal, fileEncoding, UTF8 } from './file-encoding.ts';
import { editLimit, readVersion, type EditLimitOptions, type FileVersion } from './file-versions.ts';
import { spliceUtf8 } from './patch-bytes.ts';
import { PatchedText } from './patched-text.ts';
import { changedStretch, diffReplacements, type DiffSummary } from './patch-diff.ts';
import type { ReviewedChange } from '../../../protocol/review.ts';
import { proposeWrite, reviewReport, writeReviewed, type WriteProposal } from './reviewed-write.ts';
import { echoedReview } from './review-hunks.ts';
import { planEdits, type Replacement } from './patch-edits.ts';
import { pathDescription } from '../describe.ts';
import { declareEcho, defineTool, ToolError, type AnyTool } from '../tool.ts';
import { patchFileArgsSchema, type PatchFileArgs } from '../../../protocol/tool-args.ts';

// `patch_file`: exact-text edits to one file, all or nothing. Each edit is matched in the
// original text; a missing, ambiguous or overlapping match, a change that changes nothing, or a
// file that changed since it was read leaves the file untouched. CRLF and a UTF-8 BOM are kept,
// every byte outside the matched text is kept, and the write is atomic and keeps the file mode.

const APPROVAL_EDIT_CHARS = 1200;
/** Reads and plans before a patch gives up on a file another program keeps changing. */
const MAX_ATTEMPTS = 5;

export function patchFileTool(options: EditLimitOptions = {}): AnyTool {
  return defineTool<PatchFileArgs, PatchFileResult, WriteProposal>({
    name: 'patch_file',
    model: {
      description:
        "Change part of a text file by replacing exact text. Each edit's old_text must occur exactly once in the file " +
        '(or set replace_all); all edits are matched against the current file, must not overlap, and are applied together ' +
        'or not at all. Returns a unified diff. Each line keeps its line ending (LF or CRLF), and the file its byte order mark and encoding.',
      schema: patchFileArgsSchema,
      resultSchema: patchFileResultSchema,
      render: (result) => renderPatch(result),
      isError: (result) => !result.ok,
    },
    gate: {
      kind: 'write',
      paths: (args) => [{ path: args.path, access: 'write' }],
      // The change as hunks for review: the edits planned on the file as it is now (null when they do
      // not apply; execute then says why).
      async proposeReview(args, ctx) {
        const real = ctx.resolvedPath(args.path);
        const shown = shownPath(ctx.workspace, args.path, real);
        const read = await readVersion(real, shown, await editLimit(options), 'patch_file');
        if (args.expected_sha256 && args.expected_sha256.toLowerCase() !== sha256Hex(read.bytes)) return null;
        const planned = planPatch(read.bytes, args, shown);
        const encoding = fileEncoding(read.bytes);
        if (!planned.ok || !encoding) return null;
        return proposeWrite(shown, planned.original, planned.text, sha256Hex(read.bytes), encoding);
      },
    },
    card: {
      describe: (args, ctx) => pathDescription(`Patch ${args.path}`, args.path, ctx.workspace, describeEdits(args)),
      // A patch that did not apply echoes its error as text.
      echo: declareEcho(patchEchoSchema, (result: PatchFileResult) =>
        result.ok
          ? {
              kind: 'patch',
              path: result.path,
              diff: result.diff,
              added: result.added,
              removed: result.removed,
              hunks: result.hunks,
              ...(result.review ? { review: echoedReview(result.review) } : {}),
            }
          : undefined,
      ),
    },
    async execute(args, ctx) {
      const real = ctx.resolvedPath(args.path);
      const shown = shownPath(ctx.workspace, args.path, real);
      const maxBytes = await editLimit(options);
      if (ctx.review) return patchReviewed(real, shown, maxBytes, ctx.review);
      // Another program may change the file between the read and the rename (a log being appended
      // to): the write then refuses, and the same exact-text edits are planned again on what the
      // file holds now — they are anchored on text, not positions, so they mean the same there.
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
        let read: FileVersion;
        try {
          read = await readVersion(real, shown, maxBytes, 'patch_file');
        } catch (error) {
          if (error instanceof ToolError)
            return failure(
              `${error.message}${/does not exist/.test(error.message) ? ' Use write_file to create a new file.' : ''}`,
            );
          throw error;
        }
        // Hashing megabytes costs: only when a message or the caller's check needs the hash.
        const before = (): string => sha256Hex(read.bytes);
        if (attempt === 1 && args.expected_sha256 && args.expected_sha256.toLowerCase() !== before()) {
          return failure(
            `${shown} changed since it was read: expected sha256 ${args.expected_sha256.toLowerCase()}, but it is now ${before()}. ` +
              'Read it again with read_file and redo the edits against what it holds now. Nothing was written.',
          );
        }
        const planned = planPatch(read.bytes, args, shown);
        if (!planned.ok) {
          const meanwhile =
            attempt === 1
              ? ''
              : `${shown} was changed by another program while it was being patched (sha256 now ${before()}). `;
          return failure(`${meanwhile}${planned.error} Nothing was written.`);
        }
        // The diff and the new file's hash are made while its bytes are being flushed to disk.
        let summary: DiffSummary | undefined;
        const hash = createHash('sha256');
        let hashed = false;
        const whileSyncing = (): void => {
          for (const piece of planned.data) hash.update(piece);
          hashed = true;
          try {
            summary = diffOf(shown, planned);
          } catch {
            // Made again below, where its error is reported.
          }
        };
        let late: Buffer;
        try {
          late = await writeFileAtomic(real, planned.data, { expect: read.identity, shown, whileSyncing });
        } catch (error) {
          if (error instanceof FileChangedError) continue;
          if (error instanceof ToolError) return failure(error.message);
          return failure(`Could not write ${shown}: ${(error as Error).message}. The file was left as it was.`);
        }
        summary ??= diffOf(shown, planned);
        // Lines another program appended during the rename were carried over to the end (atomic-write.ts).
        if (!hashed) for (const piece of planned.data) hash.update(piece);
        hash.update(late);
        return { ok: true, path: shown, ...summary, sha256: hash.digest('hex') };
      }
      const now = await readVersion(real, shown, maxBytes, 'patch_file').catch(() => null);
      return failure(
        `${shown} kept changing while it was being patched (another program is writing to it; ${MAX_ATTEMPTS} tries). ` +
          `Nothing was written.${now ? ` Its sha256 is now ${sha256Hex(now.bytes)}.` : ''} ` +
          'Try again when it is quiet, or stop the program writing to it.',
      );
    },
  });
}

/** The diff of a planned patch, read from the original and the replacements (no new text made). */
function diffOf(shown: string, planned: Extract<Planned, { ok: true }>): DiffSummary {
  const patched = new PatchedText(planned.original, planned.replacements);
  return diffReplacements(shown, planned.original, patched, planned.replacements);
}

function failure(error: string): PatchFileResult {
  return { ok: false, error };
}

/** Only the hunks the person chose, onto the file as the proposal saw it. */
async function patchReviewed(
  real: string,
  shown: string,
  maxBytes: number,
  reviewed: ReviewedChange<WriteProposal>,
): Promise<PatchFileResult> {
  let written;
  try {
    written = await writeReviewed(real, shown, maxBytes, 'patch_file', reviewed);
  } catch (error) {
    if (error instanceof ToolError) return failure(error.message);
    throw error;
  }
  const summary = diffReplacements(shown, written.original, written.text, [
    changedStretch(written.original, written.text),
  ]);
  return { ok: true, path: shown, ...summary, sha256: written.sha256, review: written.outcome };
}

type Planned =
  | { ok: true; original: string; text: string; data: Buffer[]; replacements: Replacement[] }
  | { ok: false; error: string };

/**
 * The edits applied to the file's text, written back in the file's encoding with its byte order
 * mark; a file that is not UTF-8 only when the call names its encoding (file-encoding.ts).
 */
function planPatch(bytes: Buffer, args: PatchFileArgs, shown: string): Planned {
  const encoding = fileEncoding(bytes);
  if (encoding === null)
    return { ok: false, error: `${shown} looks like a binary file, so patch_file cannot change it as text.` };
  const refusal = encodingRefusal(bytes, encoding, args.encoding, shown, 'patch_file');
  if (refusal) return { ok: false, error: refusal };
  const original = decodeText(bytes, encoding);
  const plan = planEdits(original, args.edits, shown);
  if (!plan.ok) return plan;
  // UTF-8: the file's bytes around the edits are kept as they are, only the new texts encoded.
  const spliced = encoding.name === UTF8 ? spliceUtf8(bytes, encoding.bom.length, original, plan.replacements) : null;
  if (spliced) return { ok: true, original, text: plan.text, data: spliced, replacements: plan.replacements };
  const encoded = encodeOrRefuse(plan.text, encoding, shown);
  if (!encoded.ok) return encoded;
  return { ok: true, original, text: plan.text, data: [encoded.bytes], replacements: plan.replacements };
}

export function renderPatch(result: PatchFileResult): string {
  if (!result.ok) return result.error;
  const hunks = `${result.hunks} hunk${result.hunks === 1 ? '' : 's'}`;
  const review = result.review ? `\n\n${reviewReport(result.path, result.review)}` : '';
  return `Patched ${result.path}: +${result.added} -${result.removed} in ${hunks}. sha256: ${result.sha256}${review}\n\n${result.diff}`;
}

function describeEdits(args: PatchFileArgs): string {
  const shown = args.edits.map((change, index) => {
    const label = `Edit ${index + 1}${change.replace_all ? ' (every match)' : ''}:`;
    const removed = change.old_text
      .split('\n')
      .map((line) => `- ${line}`)
      .join('\n');
    const added =
      change.new_text.length === 0
        ? ''
        : `\n${change.new_text
            .split('\n')
            .map((line) => `+ ${line}`)
            .join('\n')}`;
    return `${label}\n${removed}${added}`;
  });
  const text = shown.join('\n\n');
  return text.length <= APPROVAL_EDIT_CHARS
    ? text
    : `${text.slice(0, APPROVAL_EDIT_CHARS)}\n… (${text.length - APPROVAL_EDIT_CHARS} more characters)`;
}
