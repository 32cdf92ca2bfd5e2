import { mkdir, readdir, rm } from 'node:fs/promises';
import { makeTempWorkspace } from './temp-workspace.ts';
import path from 'node:path';
import type { ToolCompletedEvent } from '../protocol/events.ts';
import { StatusRecorder } from '../main/status/sink.ts';
import type { EditLimitOptions } from '../main/tools/files/file-versions.ts';
import { listDirTool } from '../main/tools/files/list-dir.ts';
import { patchFileTool } from '../main/tools/files/patch-file.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../main/tools/permission-gate.ts';
import { readFileTool } from '../main/tools/files/read-file.ts';
import type { ToolOutcome } from '../main/tools/call-context.ts';
import { defaultCallHooks } from '../main/tools/default-call-hooks.ts';
import { ToolRegistry } from '../main/tools/registry.ts';
import { searchFilesTool } from '../main/tools/files/search-files.ts';
import { writeFileTool } from '../main/tools/files/write-file.ts';

// A real registry over a real temp workspace for the file tools' tests: every call runs the whole
// pipeline (validation, confinement, gate, execute, render, spill, echo).

export interface FileToolsHarness {
  /** Holds `workspace` and `outside`; removed by `cleanup`. */
  root: string;
  /** The workspace root (real path). */
  workspace: string;
  /** A folder beside the workspace, outside it. */
  outside: string;
  sessionDir: string;
  recorder: StatusRecorder;
  registry: ToolRegistry;
  /** Runs one call; `echo` is its tool_completed event. */
  call(name: string, args: unknown): Promise<ToolOutcome & { echo: ToolCompletedEvent }>;
  /** Workspace path of a relative name. */
  at(relative: string): string;
  /** Every name in a folder (temp files included), sorted. */
  namesIn(folder: string): Promise<string[]>;
  cleanup(): Promise<void>;
}

/** `options`: how write_file and patch_file are made (the edit limit they read at each call). */
export async function createFileToolsHarness(options: EditLimitOptions = {}): Promise<FileToolsHarness> {
  const { root, workspace, sessionDir } = await makeTempWorkspace('aether-files-');
  const outside = path.join(root, 'outside');
  await mkdir(outside);
  const recorder = new StatusRecorder();
  const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'Nobody answers questions in these tests.'));
  const registry = new ToolRegistry({
    workspace,
    sessionDir,
    sink: recorder,
    gate,
    readableRoots: [sessionDir],
    hooks: defaultCallHooks(),
  });
  registry.register(readFileTool, writeFileTool(options), patchFileTool(options), listDirTool, searchFilesTool);
  let calls = 0;
  return {
    root,
    workspace,
    outside,
    sessionDir,
    recorder,
    registry,
    async call(name, args) {
      calls += 1;
      const callId = `call-${calls}`;
      const outcome = await registry.call({ callId, name, args });
      const echo = recorder.ofType('tool_completed').find((event) => event.call_id === callId);
      if (!echo) throw new Error(`no tool_completed event for ${callId}`);
      return { ...outcome, echo };
    },
    at: (relative) => path.join(workspace, relative),
    namesIn: async (folder) => (await readdir(folder)).sort(),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
