import type { AnyTool } from '../tool.ts';
import { processInputTool } from './process-input.ts';
import { processListTool } from './process-list.ts';
import { processOutputTool } from './process-output-tool.ts';
import type { ProcessTable } from './process-table.ts';
import { processStopTool } from './process-stop.ts';

/** The tools that reach a session's background processes, in the order the model sees them. */
export function processTools(table: ProcessTable): AnyTool[] {
  return [processOutputTool(table), processInputTool(table), processStopTool(table), processListTool(table)];
}
