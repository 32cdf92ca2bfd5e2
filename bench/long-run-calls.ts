import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SessionLog } from '../main/session/session-log.ts';
import { SessionSink } from '../main/session/session-sink.ts';
import { StatusRecorder } from '../main/status/sink.ts';
import { readFileTool } from '../main/tools/files/read-file.ts';
import { searchFilesTool } from '../main/tools/files/search-files.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../main/tools/permission-gate.ts';
import { ToolRegistry, type RegistryOptions } from '../main/tools/registry.ts';

// The calls of the long-run bench, the same for the session and its baseline: step after step of
// parallel small reads of a workspace of small source files, every `searchEvery`th call a search.

export interface LongRunShape {
  steps: number;
  parallel: number;
  files: number;
  fileBytes: number;
  searchEvery: number;
}

export interface LongRunCall {
  id: string;
  name: 'read_file' | 'search_files';
  args: Record<string, unknown>;
}

export function longRunCall(shape: LongRunShape, step: number, index: number): LongRunCall {
  const id = `call-${step}-${index}`;
  if (shape.searchEvery > 0 && index % shape.searchEvery === shape.searchEvery - 1)
    return { id, name: 'search_files', args: { pattern: `value${(step + index) % 97}\\b`, path: 'src' } };
  return { id, name: 'read_file', args: { path: `src/module-${(step * shape.parallel + index) % shape.files}.ts` } };
}

/** The workspace: `files` source files of about `fileBytes` each, and a .gitignore at the root. */
export async function writeLongRunWorkspace(workspace: string, shape: LongRunShape): Promise<void> {
  await mkdir(path.join(workspace, 'src'), { recursive: true });
  await writeFile(path.join(workspace, '.gitignore'), 'node_modules/\nout/\n*.log\n');
  for (let file = 0; file < shape.files; file += 1) {
    const lines: string[] = [];
    for (let line = 0; lines.join('\n').length < shape.fileBytes; line += 1)
      lines.push(
        `export const value${(file + line) % 97}_${line} = ${JSON.stringify(`module ${file}, line ${line}`)};`,
      );
    await writeFile(path.join(workspace, 'src', `module-${file}.ts`), `${lines.join('\n')}\n`);
  }
}

/** A registry of the long run's two tools, with `log` as its sink and store, allowing every call. */
export function longRunRegistry(workspace: string, log: SessionLog, hooks?: RegistryOptions['hooks']): ToolRegistry {
  const registry = new ToolRegistry({
    workspace,
    sessionDir: log.dir,
    sink: new SessionSink(log, new StatusRecorder()),
    store: log,
    gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no one to ask')),
    ...(hooks ? { hooks } : {}),
  });
  registry.register(readFileTool);
  registry.register(searchFilesTool);
  return registry;
}
