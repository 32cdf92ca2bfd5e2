import { lstat } from 'node:fs/promises';
import { writeEchoSchema } from '../../../protocol/echo.ts';
import { writeFileResultSchema, type WriteFileResult } from '../../../protocol/tools.ts';
import { FileChangedError, writeFileAtomic } from './atomic-write.ts';
import { sha256Hex, shownPath } from './file-content.ts';
import {
  decodeText,
  encodeOrRefuse,
  encodingRefusal,
  fileEncoding,
  knownEncoding,
  UTF8,
  utf16Bom,
} from './file-encoding.ts';
import { editLimit, hashVersion, readVersion, type EditLimitOptions } from './file-versions.ts';
import { pathDescription } from '../describe.ts';
import { declareEcho, defineTool, ToolError, type AnyTool } from '../tool.ts';
import { overwriteChange, writeEcho } from './write-echo.ts';
import { proposeWrite, reviewReport, writeReviewed, type WriteProposal } from './reviewed-write.ts';
import { echoedReview } from './review-hunks.ts';
import { writeFileArgsSchema, type WriteFileArgs } from '../../../protocol/tool-args.ts';

// `write_file`: create a file, or replace one whose current contents the caller has seen (its
// sha256 from read_file), so a write never silently clobbers a file the model never read or one
// that changed since. Parent folders are created; the write is atomic and keeps the file's mode.

const APPROVAL_PREVIEW_CHARS = 2000;

export function writeFileTool(options: EditLimitOptions = {}): AnyTool {
  return defineTool<WriteFileArgs, WriteFileResult, WriteProposal>({
    name: 'write_file',
    model: {
      description:
        'Create a file with the given contents, creating parent folders as needed. To overwrite an existing file, ' +
        'first read it with read_file and pass the sha256 it reported as expected_sha256. For changes to part of a ' +
        'file, prefer patch_file.',
      schema: writeFileArgsSchema,
      resultSchema: writeFileResultSchema,
      render: (result) =>
        `${result.created ? 'Created' : 'Overwrote'} ${result.path} (${result.bytes} bytes). sha256: ${result.sha256}` +
        (result.review ? `\n\n${reviewReport(result.path, result.review)}` : ''),
    },
    gate: {
      kind: 'write',
      paths: (args) => [{ path: args.path, access: 'write' }],
      // The change as hunks for review, for UTF-8 text written as UTF-8 (other writes are asked about whole).
      async proposeReview(args, ctx) {
        if (args.encoding !== undefined) return null;
        const real = ctx.resolvedPath(args.path);
        const shown = shownPath(ctx.workspace, args.path, real);
        const maxBytes = await editLimit(options);
        const version = await currentVersion(real, shown, maxBytes);
        const utf8 = { name: UTF8, bom: Buffer.alloc(0) };
        if (version === null) return args.expected_sha256 ? null : proposeWrite(shown, null, args.content, null, utf8);
        if (version.sha256 !== args.expected_sha256?.toLowerCase()) return null;
        const { bytes } = await readVersion(real, shown, maxBytes, 'write_file');
        const encoding = fileEncoding(bytes);
        if (encoding?.name !== UTF8 || sha256Hex(bytes) !== version.sha256) return null;
        return proposeWrite(shown, decodeText(bytes, encoding), args.content, version.sha256, utf8);
      },
    },
    card: {
      describe: (args, ctx) =>
        pathDescription(
          `${args.expected_sha256 ? 'Overwrite' : 'Create'} ${args.path}`,
          args.path,
          ctx.workspace,
          preview(args.content),
        ),
      // The card shows what was written: a new file's first page, or the diff of an overwrite.
      echo: declareEcho(writeEchoSchema, (result: WriteFileResult, args: WriteFileArgs) => {
        if (!result.review) return writeEcho(result, args.content);
        // What was written is not the call's content when hunks were left out: the card shows the diff.
        const { path, created, bytes, change } = result;
        return {
          kind: 'write',
          path,
          created,
          bytes,
          ...(change ? { change } : {}),
          review: echoedReview(result.review),
        };
      }),
    },
    async execute(args, ctx) {
      const real = ctx.resolvedPath(args.path);
      const shown = shownPath(ctx.workspace, args.path, real);
      const maxBytes = await editLimit(options);
      if (ctx.review) {
        const written = await writeReviewed(real, shown, maxBytes, 'write_file', ctx.review, ctx.workspace);
        const created = ctx.review.proposal.baseSha256 === null;
        return {
          path: shown,
          created,
          bytes: written.data.length,
          sha256: written.sha256,
          change: overwriteChange(shown, written.original, written.text),
          review: written.outcome,
        };
      }
      const version = await currentVersion(real, shown, maxBytes);
      const existing = version?.sha256 ?? null;
      if (existing === null && args.expected_sha256) {
        throw new ToolError(
          `${shown} does not exist, but expected_sha256 was given for it. Omit expected_sha256 to create it, or check the path.`,
        );
      }
      if (existing !== null && !args.expected_sha256) {
        throw new ToolError(
          `${shown} already exists. Read it first with read_file, then pass the sha256 it reports as expected_sha256 ` +
            'to replace it (or use patch_file to change part of it).',
        );
      }
      if (existing !== null && args.expected_sha256 && existing !== args.expected_sha256.toLowerCase()) {
        throw new ToolError(
          `${shown} changed since it was read: expected sha256 ${args.expected_sha256.toLowerCase()}, but it is now ${existing}. ` +
            'Read it again with read_file and base the new contents on what it holds now.',
        );
      }
      // The old text, for the card's diff; a change made after it was hashed fails the write below.
      const before = existing === null ? null : (await readVersion(real, shown, maxBytes, 'write_file')).bytes;
      const { data, beforeText } = contentBytes(args, before, shown);
      let late: Buffer;
      try {
        late = await writeFileAtomic(real, data, {
          expect: version?.identity ?? null,
          createFoldersWithin: ctx.workspace,
          shown,
        });
      } catch (error) {
        if (error instanceof FileChangedError) throw await changedMeanwhile(real, shown, maxBytes);
        if (error instanceof ToolError) throw error;
        throw new ToolError(`Could not write ${shown}: ${(error as Error).message}. The file was left as it was.`);
      }
      const change = beforeText === null ? null : overwriteChange(shown, beforeText, args.content);
      return {
        path: shown,
        created: existing === null,
        bytes: data.length + late.length,
        // Lines another program appended during the rename were carried over to the end (atomic-write.ts).
        sha256: sha256Hex(late.length === 0 ? data : Buffer.concat([data, late])),
        ...(change ? { change } : {}),
      };
    },
  });
}

/**
 * The bytes to write: UTF-8, or the encoding the call names. A file that is not UTF-8 is only
 * replaced when the call names its encoding; its byte order mark is kept. Also the old text, for
 * the card's diff (null for a new file or one that is not text).
 */
function contentBytes(args: WriteFileArgs, before: Buffer | null, shown: string) {
  const current = before === null ? null : fileEncoding(before);
  if (before !== null && current !== null) {
    const refusal = encodingRefusal(before, current, args.encoding, shown, 'write_file');
    if (refusal) throw new ToolError(`${refusal} Nothing was written.`);
  }
  const beforeText = before !== null && current !== null ? decodeText(before, current) : null;
  if (args.encoding === undefined) return { data: Buffer.from(args.content, 'utf8'), beforeText };
  if (!knownEncoding(args.encoding))
    throw new ToolError(
      `"${args.encoding}" is not an encoding write_file knows (try UTF-8, ISO-8859-1, Shift_JIS, UTF-16LE). Nothing was written.`,
    );
  // A new UTF-16 file gets the byte order mark that tells readers its encoding.
  const bom = current?.bom ?? (/^utf-?16/i.test(args.encoding) ? utf16Bom(args.encoding) : Buffer.alloc(0));
  const encoded = encodeOrRefuse(args.content, { name: args.encoding, bom }, shown);
  if (!encoded.ok) throw new ToolError(`${encoded.error} Nothing was written.`);
  return { data: encoded.bytes, beforeText };
}

/** The file now there (its sha256 and version), or null when there is none. A folder in the way is an error. */
async function currentVersion(real: string, shown: string, maxBytes: number) {
  const stat = await lstat(real).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
    throw error;
  });
  if (stat?.isDirectory())
    throw new ToolError(`${shown} is a folder; write_file writes files. Choose a file path inside it.`);
  return hashVersion(real, shown, maxBytes, 'write_file');
}

/**
 * Another program wrote, created or deleted the file between the check and the rename: nothing
 * was written (a whole-file write cannot be merged with a change it never saw).
 */
async function changedMeanwhile(real: string, shown: string, maxBytes: number): Promise<ToolError> {
  const now = await hashVersion(real, shown, maxBytes, 'write_file').catch(() => null);
  const state = now ? `it now has sha256 ${now.sha256}` : 'it is no longer there';
  return new ToolError(
    `${shown} was changed by another program while it was being written (${state}). Nothing was written. ` +
      'Read it again with read_file and base the new contents on what it holds now.',
  );
}

function preview(content: string): string {
  if (content.length <= APPROVAL_PREVIEW_CHARS) return content;
  return `${content.slice(0, APPROVAL_PREVIEW_CHARS)}\n… (${content.length - APPROVAL_PREVIEW_CHARS} more characters)`;
}
