import {
  processStopArgsSchema,
  processStopResultSchema,
  type ProcessStopArgs,
  type ProcessStopResult,
} from '../../../protocol/processes.ts';
import { defineTool, type AnyTool } from '../tool.ts';
import type { ProcessTable } from './process-table.ts';
import { processLine } from './process-text.ts';

// `process_stop`: ends a background process and everything it started — its process group, then
// whatever carries its mark outside the group (a daemon) — SIGTERM, then SIGKILL after a grace.

export function processStopTool(table: ProcessTable): AnyTool {
  return defineTool<ProcessStopArgs, ProcessStopResult>({
    name: 'process_stop',
    model: {
      description:
        'Stop a background process and everything it started (SIGTERM, then SIGKILL after 2 s to what is left).',
      schema: processStopArgsSchema,
      resultSchema: processStopResultSchema,
      render: (result) => `${result.stopped ? 'Stopped' : 'It had already ended'}: ${processLine(result.process)}`,
    },
    gate: { kind: 'read' },
    card: { describe: (args) => ({ title: `Stop ${args.id}`, subtitle: args.id }) },
    async execute(args) {
      const process = table.get(args.id);
      const wasRunning = process.running;
      await table.stop(args.id, 'model');
      return { process: await table.info(process), stopped: wasRunning };
    },
  });
}
