import { z } from 'zod';
import type { PatchFileResult } from '../../../protocol/tools.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { looksBinary, readWholeFile, sha256Hex, shownPath, UTF8_BOM } from './file-content.ts';
import { diffReplacements } from './patch-diff.ts';
import { planEdits } from './patch-edits.ts';
import { defineTool, ToolError } from '../tool.ts';

// `patch_file`: exact-text edits to one file, all or nothing. Each edit is matched in the
// original text; a missing, ambiguous or overlapping match, a change that changes nothing, or a
// file that changed since it was read leaves the file untouched. CRLF and a UTF-8 BOM are kept,
// every byte outside the matched text is kept, and the write is atomic and keeps the file mode.

const SHA256 = /^[0-9a-f]{64}$/i;
const APPROVAL_EDIT_CHARS = 1200;

const edit = z.object({
  old_text: z
    .string()
    .min(1)
    .describe(
      'Text to replace, copied exactly from the file (whitespace included). It must match exactly one place unless replace_all is set.',
    ),
  new_text: z.string().describe('The text that replaces it.'),
  replace_all: z.boolean().optional().describe('Replace every place old_text occurs (default false).'),
});

const schema = z.object({
  path: z.string().min(1).describe('The file, relative to the workspace root.'),
  edits: z
    .array(edit)
    .min(1)
    .describe(
      'Edits, each matched against the file as it is now (not as earlier edits leave it); they must not overlap.',
    ),
  expected_sha256: z
    .string()
    .regex(SHA256, 'must be the 64 hex digits of a sha256')
    .optional()
    .describe('The sha256 read_file reported; the patch is refused if the file changed since.'),
});

export type PatchFileArgs = z.infer<typeof schema>;

/** PatchFileResult (protocol/tools.ts), for programs that call patch_file from run_code. */
export const patchFileResultSchema = z.discriminatedUnion('ok', [
  z.strictObject({
    ok: z.literal(true),
    path: z.string(),
    added: z.number().int().describe('Lines added.'),
    removed: z.number().int().describe('Lines removed.'),
    hunks: z.number().int(),
    diff: z.string().describe('Unified diff of the change.'),
    sha256: z.string().describe('Of the patched file: the expected_sha256 of a later write or patch.'),
  }),
  z.strictObject({ ok: z.literal(false), error: z.string() }),
]);

export const patchFileTool = defineTool<PatchFileArgs, PatchFileResult>({
  name: 'patch_file',
  description:
    "Change part of a text file by replacing exact text. Each edit's old_text must occur exactly once in the file " +
    '(or set replace_all); all edits are matched against the current file, must not overlap, and are applied together ' +
    'or not at all. Returns a unified diff. Line endings (CRLF) and a byte order mark are kept.',
  kind: 'write',
  schema,
  resultSchema: patchFileResultSchema,
  structuredEcho: true,
  paths: (args) => [{ path: args.path, access: 'write' }],
  approval: (args) => ({ title: `Patch ${args.path}`, detail: describeEdits(args) }),
  async execute(args, ctx) {
    const real = ctx.resolvedPath(args.path);
    const shown = shownPath(ctx.workspace, args.path, real);
    let bytes: Buffer;
    try {
      bytes = await readWholeFile(real, shown);
    } catch (error) {
      if (error instanceof ToolError)
        return failure(
          `${error.message}${/does not exist/.test(error.message) ? ' Use write_file to create a new file.' : ''}`,
        );
      throw error;
    }
    const before = sha256Hex(bytes);
    if (args.expected_sha256 && args.expected_sha256.toLowerCase() !== before) {
      return failure(
        `${shown} changed since it was read: expected sha256 ${args.expected_sha256.toLowerCase()}, but it is now ${before}. ` +
          'Read it again with read_file and redo the edits against what it holds now. Nothing was written.',
      );
    }
    const bom = bytes.subarray(0, UTF8_BOM.length).equals(UTF8_BOM);
    const body = bom ? bytes.subarray(UTF8_BOM.length) : bytes;
    const original = decodeExactly(body);
    if (original === null || looksBinary(body)) {
      return failure(
        `${shown} is not UTF-8 text, so patch_file cannot change it without altering other bytes. Nothing was written.`,
      );
    }

    const plan = planEdits(original, args.edits, shown);
    if (!plan.ok) return failure(`${plan.error} Nothing was written.`);
    const data = bom ? Buffer.concat([UTF8_BOM, Buffer.from(plan.text, 'utf8')]) : Buffer.from(plan.text, 'utf8');
    try {
      await writeFileAtomic(real, data);
    } catch (error) {
      return failure(`Could not write ${shown}: ${(error as Error).message}. The file was left as it was.`);
    }
    const summary = diffReplacements(shown, original, plan.text, plan.replacements);
    return { ok: true, path: shown, ...summary, sha256: sha256Hex(data) };
  },
  render: (result) => renderPatch(result),
  isError: (result) => !result.ok,
});

function failure(error: string): PatchFileResult {
  return { ok: false, error };
}

/** UTF-8 text, or null when a byte sequence is not UTF-8 (re-encoding it would change bytes). */
function decodeExactly(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

export function renderPatch(result: PatchFileResult): string {
  if (!result.ok) return result.error;
  const hunks = `${result.hunks} hunk${result.hunks === 1 ? '' : 's'}`;
  return `Patched ${result.path}: +${result.added} -${result.removed} in ${hunks}. sha256: ${result.sha256}\n\n${result.diff}`;
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
