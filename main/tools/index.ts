import type { CommandEnvPolicy } from './exec/command-env.ts';
import { execTool } from './exec/exec.ts';
import type { EditLimitOptions } from './files/file-versions.ts';
import { listDirTool } from './files/list-dir.ts';
import { patchFileTool } from './files/patch-file.ts';
import { readFileTool } from './files/read-file.ts';
import { createRunCodeTool } from './code-mode/run-code.ts';
import { searchFilesTool } from './files/search-files.ts';
import { sshExecTool } from './ssh/ssh-exec.ts';
import type { AnyTool } from './tool.ts';
import type { ProcessTable } from './processes/process-table.ts';
import { processTools } from './processes/process-tools.ts';
import { webFetchTool } from './web/web-fetch.ts';
import { writeFileTool } from './files/write-file.ts';

/** What settings reach the built-in tools through: each read at each call, so a change applies to the next. */
export interface BuiltinToolOptions extends EditLimitOptions {
  /** Which environment variables `exec` drops (the settings' lists); default: the provider keys only. */
  commandEnv?: () => Promise<CommandEnvPolicy>;
  /** More tools run_code's programs may call, read at each use (the MCP servers' current tools). */
  more?: () => readonly AnyTool[];
  /** The session's background processes: with it, exec may start them and the process tools reach them. */
  processes?: ProcessTable;
}

// Every built-in tool, in the order the model sees them.
export function builtinTools(options: BuiltinToolOptions = {}): AnyTool[] {
  const tools: AnyTool[] = [
    readFileTool,
    writeFileTool(options),
    patchFileTool(options),
    listDirTool,
    searchFilesTool,
    execTool({
      ...(options.commandEnv ? { envPolicy: options.commandEnv } : {}),
      ...(options.processes ? { processes: options.processes } : {}),
    }),
    ...(options.processes ? processTools(options.processes) : []),
    sshExecTool(),
    webFetchTool(),
  ];
  // run_code exposes every other tool to its programs, so it comes last and reads the list lazily.
  const more = options.more ?? (() => []);
  return [...tools, createRunCodeTool({ tools: () => [...tools, ...more()] })];
}
