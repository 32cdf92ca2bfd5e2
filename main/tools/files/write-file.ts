import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { WriteFileResult } from '../../../protocol/tools.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { readWholeFile, sha256Hex, shownPath } from './file-content.ts';
import { defineTool, ToolError } from '../tool.ts';

// `write_file`: create a file, or replace one whose current contents the caller has seen (its
// sha256 from read_file), so a write never silently clobbers a file the model never read or one
// that changed since. Parent folders are created; the write is atomic and keeps the file's mode.

const SHA256 = /^[0-9a-f]{64}$/i;
const APPROVAL_PREVIEW_CHARS = 2000;

const schema = z.object({
  path: z.string().min(1).describe('The file, relative to the workspace root. Missing parent folders are created.'),
  content: z.string().describe('The complete new contents of the file.'),
  expected_sha256: z
    .string()
    .regex(SHA256, 'must be the 64 hex digits of a sha256')
    .optional()
    .describe('Required to overwrite an existing file: the sha256 read_file reported for it.'),
});

export type WriteFileArgs = z.infer<typeof schema>;

/** WriteFileResult (protocol/tools.ts), for programs that call write_file from run_code. */
export const writeFileResultSchema = z.strictObject({
  path: z.string(),
  created: z.boolean().describe('False when an existing file was overwritten.'),
  bytes: z.number().int(),
  sha256: z.string().describe('Of the new contents: the expected_sha256 of a later write or patch.'),
});

export const writeFileTool = defineTool<WriteFileArgs, WriteFileResult>({
  name: 'write_file',
  description:
    'Create a file with the given contents, creating parent folders as needed. To overwrite an existing file, ' +
    'first read it with read_file and pass the sha256 it reported as expected_sha256. For changes to part of a ' +
    'file, prefer patch_file.',
  kind: 'write',
  schema,
  resultSchema: writeFileResultSchema,
  paths: (args) => [{ path: args.path, access: 'write' }],
  approval: (args) => ({
    title: args.expected_sha256 ? `Overwrite ${args.path}` : `Create ${args.path}`,
    detail: preview(args.content),
  }),
  async execute(args, ctx) {
    const real = ctx.resolvedPath(args.path);
    const shown = shownPath(ctx.workspace, args.path, real);
    const existing = await currentHash(real, shown);
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
    const data = Buffer.from(args.content, 'utf8');
    try {
      await mkdir(path.dirname(real), { recursive: true });
      await writeFileAtomic(real, data);
    } catch (error) {
      throw new ToolError(`Could not write ${shown}: ${(error as Error).message}. The file was left as it was.`);
    }
    return { path: shown, created: existing === null, bytes: data.length, sha256: sha256Hex(data) };
  },
  render: (result) =>
    `${result.created ? 'Created' : 'Overwrote'} ${result.path} (${result.bytes} bytes). sha256: ${result.sha256}`,
});

/** The sha256 of the file now there, or null when there is none. A folder in the way is an error. */
async function currentHash(real: string, shown: string): Promise<string | null> {
  const stat = await lstat(real).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (stat === null) return null;
  if (stat.isDirectory())
    throw new ToolError(`${shown} is a folder; write_file writes files. Choose a file path inside it.`);
  return sha256Hex(await readWholeFile(real, shown));
}

function preview(content: string): string {
  if (content.length <= APPROVAL_PREVIEW_CHARS) return content;
  return `${content.slice(0, APPROVAL_PREVIEW_CHARS)}\n… (${content.length - APPROVAL_PREVIEW_CHARS} more characters)`;
}
