import { execTool } from './exec.ts';
import { createRunCodeTool } from './run-code.ts';
import { sshExecTool } from './ssh-exec.ts';
import type { AnyTool } from './tool.ts';

// Every built-in tool, in the order the model sees them.
export function builtinTools(): AnyTool[] {
  const tools: AnyTool[] = [execTool(), sshExecTool()];
  // run_code exposes every other tool to its programs, so it comes last and reads the list lazily.
  return [...tools, createRunCodeTool({ tools: () => tools })];
}
