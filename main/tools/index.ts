import { execTool } from './exec.ts';
import { listDirTool } from './list-dir.ts';
import { patchFileTool } from './patch-file.ts';
import { readFileTool } from './read-file.ts';
import { createRunCodeTool } from './run-code.ts';
import { searchFilesTool } from './search-files.ts';
import { sshExecTool } from './ssh-exec.ts';
import type { AnyTool } from './tool.ts';
import { writeFileTool } from './write-file.ts';

// Every built-in tool, in the order the model sees them.
export function builtinTools(): AnyTool[] {
  const tools: AnyTool[] = [readFileTool, writeFileTool, patchFileTool, listDirTool, searchFilesTool, execTool(), sshExecTool()];
  // run_code exposes every other tool to its programs, so it comes last and reads the list lazily.
  return [...tools, createRunCodeTool({ tools: () => tools })];
}
