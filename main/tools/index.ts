import { execTool } from './exec.ts';
import type { AnyTool } from './tool.ts';

// Every built-in tool, in the order the model sees them.
export function builtinTools(): AnyTool[] {
  return [execTool()];
}
