import { stat } from 'node:fs/promises';
import type { FileReadRequest, FileView } from '../../protocol/files.ts';
import type { ReadFileArgs } from '../../protocol/tool-args.ts';
import type { ReadFileResult } from '../../protocol/tools.ts';
import { readFileTool } from '../tools/files/read-file.ts';
import type { ToolContext, ToolDefinition } from '../tools/tool.ts';
import { confinePath } from '../tools/workspace.ts';

// The panel's own reads of workspace files, for file links and a diff's folded lines: the same
// confinement as read_file (the real path must stay inside the workspace; the open refuses a link
// swapped in after the check) and the same page limits (2 000 lines, ~50 KiB, long lines cut), but
// no model, no permission question and nothing in the session log. It only reads. Kept apart from
// workspace-files.ts so that a command which only names a workspace does not load read_file.

/** Reading takes no longer than this; a stuck network mount answers with an error instead of hanging. */
const READ_TIMEOUT_MS = 10_000;

/** read_file as it was defined: the registry keeps tools untyped, this caller knows which one it runs. */
const readFile = readFileTool as unknown as ToolDefinition<ReadFileArgs, ReadFileResult>;

/** A page of a workspace file as it is now. */
export async function readWorkspaceFile(workspace: string, request: FileReadRequest): Promise<FileView> {
  const real = await confinePath(workspace, request.path);
  const signal = AbortSignal.timeout(READ_TIMEOUT_MS);
  const refuse = (): never => {
    throw new Error('The panel viewer only reads files.');
  };
  // read_file's execute sees only its confined path and the signal; nothing else of a call.
  const context: ToolContext = {
    callId: 'panel-viewer',
    workspace,
    signal,
    sessionDir: workspace,
    report: () => undefined,
    dispatch: refuse,
    requestApproval: refuse,
    permits: refuse,
    allowRuleFor: () => null,
    resolvedPath: (requested) => (requested === request.path ? real : refuse()),
  };
  const page = await readFile.execute(
    {
      path: request.path,
      ...(request.offset === undefined ? {} : { offset: request.offset }),
      ...(request.limit === undefined ? {} : { limit: request.limit }),
    },
    context,
  );
  return {
    path: page.path,
    range: page.range,
    total_lines: page.total_lines,
    content: page.content,
    truncated: page.truncated,
    sha256: page.sha256,
  };
}

/** Which of `paths` name regular files inside the workspace now (links out of it never count). */
export async function existingFiles(workspace: string, paths: readonly string[]): Promise<string[]> {
  const unique = [...new Set(paths)];
  const found = await Promise.all(
    unique.map(async (requested) => {
      try {
        const real = await confinePath(workspace, requested);
        // `real` has no link left in it: confinement resolved them, inside the workspace.
        return (await stat(real)).isFile() ? requested : null;
      } catch {
        return null;
      }
    }),
  );
  return found.filter((requested): requested is string => requested !== null);
}
