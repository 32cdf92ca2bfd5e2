import { lstat } from 'node:fs/promises';
import type { PatchFileArgs, ReadFileArgs, WriteFileArgs } from '../../protocol/tool-args.ts';
import type { PatchFileResult, ReadFileResult, WriteFileResult } from '../../protocol/tools.ts';
import { sha256Hex, shownPath } from '../tools/files/file-content.ts';
import { MAX_LINE_CHARS, PAGE_BUDGET, PAGE_LINES } from '../tools/files/read-file.ts';
import { diffReplacements } from '../tools/files/patch-diff.ts';
import { planEdits } from '../tools/files/patch-edits.ts';
import { PatchedText } from '../tools/files/patched-text.ts';
import { overwriteChange } from '../tools/files/write-echo.ts';
import { ToolError, type AnyTool, type ToolContext } from '../tools/tool.ts';

// The files open in an editor that drives the session (an ACP client): read_file reads the
// editor's text of a file (its buffer, unsaved changes included), and write_file and patch_file
// change that text through the editor, where it offers them. The path is resolved and confined as for any call before the editor
// is asked; the gate and the card see the same call and result as a read or write on disk.

/** An editor's files: `read` rejects for a file it cannot read; either may be absent. */
export interface EditorFiles {
  read?: (absolutePath: string) => Promise<string>;
  write?: (absolutePath: string, content: string) => Promise<void>;
}

/** A session's tool with read_file, write_file and patch_file going through the editor where it offers them. */
export function throughEditorFiles(editor: EditorFiles): (tool: AnyTool) => AnyTool {
  const files = editor as Required<EditorFiles>;
  return (tool) => {
    if (tool.name === 'read_file' && editor.read)
      return { ...tool, execute: (args, ctx) => readThroughClient(files, args as ReadFileArgs, ctx) } as AnyTool;
    if (tool.name === 'write_file' && editor.read && editor.write) {
      const onDisk = tool.execute.bind(tool) as unknown as (
        args: WriteFileArgs,
        ctx: ToolContext,
      ) => Promise<WriteFileResult>;
      return {
        ...tool,
        execute: (args, ctx) => {
          const write = args as WriteFileArgs;
          // A write reviewed hunk by hunk, or in another encoding, goes to disk as before.
          if (ctx.review || write.encoding !== undefined) return onDisk(write, ctx);
          return writeThroughClient(files, write, ctx);
        },
      } as AnyTool;
    }
    if (tool.name === 'patch_file' && editor.read && editor.write) {
      const onDisk = tool.execute.bind(tool) as unknown as (
        args: PatchFileArgs,
        ctx: ToolContext,
      ) => Promise<PatchFileResult>;
      return {
        ...tool,
        execute: (args, ctx) => {
          const patch = args as PatchFileArgs;
          if (ctx.review || patch.encoding !== undefined) return onDisk(patch, ctx);
          return patchThroughEditor(files, patch, ctx);
        },
      } as AnyTool;
    }
    return tool;
  };
}

/** The editor's text of a file, or null where it has none and the disk has none either. */
async function clientText(files: Required<EditorFiles>, real: string, shown: string): Promise<string | null> {
  try {
    return await files.read(real);
  } catch (error) {
    const onDisk = await lstat(real).then(
      () => true,
      () => false,
    );
    if (!onDisk) return null;
    throw new ToolError(`The editor could not read ${shown}: ${(error as Error).message}`);
  }
}

async function readThroughClient(
  files: Required<EditorFiles>,
  args: ReadFileArgs,
  ctx: ToolContext,
): Promise<ReadFileResult> {
  const real = ctx.resolvedPath(args.path);
  const shown = shownPath(ctx.workspace, args.path, real);
  const text = await clientText(files, real, shown);
  if (text === null) throw new ToolError(`${shown} does not exist. Check the path (list_dir shows what is there).`);
  return pageOf(text, shown, args.offset ?? 1, Math.min(args.limit ?? PAGE_LINES, PAGE_LINES));
}

/** One page of a text, as read_file gives it: lines cut past MAX_LINE_CHARS, within the page's byte budget. */
export function pageOf(text: string, shown: string, start: number, count: number): ReadFileResult {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  if (start > 1 && start > lines.length)
    throw new ToolError(
      `offset ${start} is past the end of ${shown}, which has ${lines.length} line${lines.length === 1 ? '' : 's'}. Use an offset from 1 to ${Math.max(lines.length, 1)}.`,
    );
  const page: string[] = [];
  let bytes = Buffer.byteLength(shown);
  for (let index = start - 1; index < lines.length && page.length < count; index += 1) {
    const line = lines[index]!;
    const ending = line.endsWith('\r\n') ? '\r\n' : line.endsWith('\n') ? '\n' : '';
    const body = line.slice(0, line.length - ending.length);
    const cut = body.length > MAX_LINE_CHARS ? `${body.slice(0, MAX_LINE_CHARS)}… (line cut)` : body;
    const cost = String(index + 1).length + 3 + Buffer.byteLength(cut);
    if (page.length > 0 && bytes + cost > PAGE_BUDGET.bytes) break;
    page.push(cut + ending);
    bytes += cost;
  }
  const end = start + page.length - 1;
  return {
    path: shown,
    range: { start, end },
    total_lines: lines.length,
    content: page.join(''),
    sha256: sha256Hex(Buffer.from(text, 'utf8')),
    truncated: end < lines.length,
  };
}

async function writeThroughClient(
  files: Required<EditorFiles>,
  args: WriteFileArgs,
  ctx: ToolContext,
): Promise<WriteFileResult> {
  const real = ctx.resolvedPath(args.path);
  const shown = shownPath(ctx.workspace, args.path, real);
  const before = await clientText(files, real, shown);
  const existing = before === null ? null : sha256Hex(Buffer.from(before, 'utf8'));
  if (existing === null && args.expected_sha256)
    throw new ToolError(
      `${shown} does not exist, but expected_sha256 was given for it. Omit expected_sha256 to create it, or check the path.`,
    );
  if (existing !== null && !args.expected_sha256)
    throw new ToolError(
      `${shown} already exists. Read it first with read_file, then pass the sha256 it reports as expected_sha256 ` +
        'to replace it (or use patch_file to change part of it).',
    );
  if (existing !== null && args.expected_sha256 && existing !== args.expected_sha256.toLowerCase())
    throw new ToolError(
      `${shown} changed in the editor since it was read: expected sha256 ${args.expected_sha256.toLowerCase()}, but it is now ${existing}. ` +
        'Read it again with read_file and base the new contents on what it holds now.',
    );
  try {
    await files.write(real, args.content);
  } catch (error) {
    throw new ToolError(`The editor could not write ${shown}: ${(error as Error).message}. Nothing was written.`);
  }
  const data = Buffer.from(args.content, 'utf8');
  const change = before === null ? null : overwriteChange(shown, before, args.content);
  return {
    path: shown,
    created: before === null,
    bytes: data.length,
    sha256: sha256Hex(data),
    ...(change ? { change } : {}),
  };
}

/** patch_file's exact-text edits on the editor's text, written back through the editor; a failure the model reads. */
async function patchThroughEditor(
  files: Required<EditorFiles>,
  args: PatchFileArgs,
  ctx: ToolContext,
): Promise<PatchFileResult> {
  const real = ctx.resolvedPath(args.path);
  const shown = shownPath(ctx.workspace, args.path, real);
  let original: string | null;
  try {
    original = await clientText(files, real, shown);
  } catch (error) {
    if (error instanceof ToolError) return { ok: false, error: error.message };
    throw error;
  }
  if (original === null) return { ok: false, error: `${shown} does not exist. Use write_file to create a new file.` };
  const before = sha256Hex(Buffer.from(original, 'utf8'));
  if (args.expected_sha256 && args.expected_sha256.toLowerCase() !== before)
    return {
      ok: false,
      error:
        `${shown} changed in the editor since it was read: expected sha256 ${args.expected_sha256.toLowerCase()}, but it is now ${before}. ` +
        'Read it again with read_file and redo the edits against what it holds now. Nothing was written.',
    };
  const plan = planEdits(original, args.edits, shown);
  if (!plan.ok) return { ok: false, error: `${plan.error} Nothing was written.` };
  try {
    await files.write(real, plan.text);
  } catch (error) {
    return {
      ok: false,
      error: `The editor could not write ${shown}: ${(error as Error).message}. Nothing was written.`,
    };
  }
  const summary = diffReplacements(shown, original, new PatchedText(original, plan.replacements), plan.replacements);
  return { ok: true, path: shown, ...summary, sha256: sha256Hex(Buffer.from(plan.text, 'utf8')) };
}
