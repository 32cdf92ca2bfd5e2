import { stat } from 'node:fs/promises';
import { LIST_MAX_ENTRIES, listDirResultSchema, type DirEntry, type ListDirResult } from '../../../protocol/tools.ts';
import { shownPath } from './file-content.ts';
import { folderDescription } from '../describe.ts';
import { defineTool, ToolError } from '../tool.ts';
import { compareNames, walk } from './walk.ts';
import {
  LIST_DEFAULT_DEPTH,
  LIST_MAX_DEPTH,
  listDirArgsSchema,
  type ListDirArgs,
} from '../../../protocol/tool-args.ts';

// `list_dir`: what a folder holds, a few levels deep. Folders end with `/`; `.gitignore`d entries
// and `.git` are left out. Shallow entries are taken first, so a cut listing still shows the top.

export const MAX_ENTRIES = LIST_MAX_ENTRIES;

export const listDirTool = defineTool<ListDirArgs, ListDirResult>({
  name: 'list_dir',
  model: {
    description:
      `List a folder's files and folders (folders end with "/"), sorted by name, ${LIST_DEFAULT_DEPTH} level deep by default ` +
      `(depth up to ${LIST_MAX_DEPTH}). Entries ignored by .gitignore and the .git folder are left out; at most ${MAX_ENTRIES} entries.`,
    schema: listDirArgsSchema,
    resultSchema: listDirResultSchema,
    render: (result) => renderListDir(result),
  },
  gate: {
    kind: 'read',
    paths: (args) => [{ path: args.path ?? '.', access: 'read' }],
  },
  card: {
    describe: (args, ctx) => folderDescription('List', args.path, ctx.workspace, args.path ?? '.'),
  },
  async execute(args, ctx) {
    const requested = args.path ?? '.';
    const real = ctx.resolvedPath(requested);
    const shown = shownPath(ctx.workspace, requested, real);
    const kind = await stat(real).catch(() => null);
    if (!kind) throw new ToolError(`${shown} does not exist. List its parent folder to see what is there.`);
    if (!kind.isDirectory()) throw new ToolError(`${shown} is a file, not a folder. Use read_file to read it.`);

    const entries: DirEntry[] = [];
    let truncated = false;
    for await (const entry of walk(real, {
      workspace: ctx.workspace,
      maxDepth: args.depth ?? LIST_DEFAULT_DEPTH,
      signal: ctx.signal,
      sizes: true,
    })) {
      if (entries.length === MAX_ENTRIES) {
        truncated = true;
        break;
      }
      const { size } = entry;
      entries.push({
        path: entry.kind === 'dir' ? `${entry.path}/` : entry.path,
        kind: entry.kind,
        ...(size === undefined ? {} : { size }),
      });
    }
    entries.sort((a, b) => compareTreePaths(a.path, b.path));
    return { path: shown, entries, truncated };
  },
});

/** Tree order: a folder, then what it holds, then its next sibling. */
function compareTreePaths(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const order = compareNames(left[index] ?? '', right[index] ?? '');
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

export function renderListDir(result: ListDirResult): string {
  if (result.entries.length === 0) return `${result.path} is empty (or holds only ignored entries).`;
  const lines = result.entries.map((entry) => (entry.kind === 'symlink' ? `${entry.path} (link)` : entry.path));
  if (result.truncated) {
    lines.push(
      `\n(Only the first ${MAX_ENTRIES} entries are shown. List a subfolder, or use a smaller depth, to see the rest.)`,
    );
  }
  return lines.join('\n');
}
