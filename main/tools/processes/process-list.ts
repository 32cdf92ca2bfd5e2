import {
  processListArgsSchema,
  processListResultSchema,
  type ProcessListArgs,
  type ProcessListResult,
} from '../../../protocol/processes.ts';
import { defineTool, type AnyTool } from '../tool.ts';
import type { ProcessTable } from './process-table.ts';
import { processLine } from './process-text.ts';

// `process_list`: the session's background processes, running and ended.

export function processListTool(table: ProcessTable): AnyTool {
  return defineTool<ProcessListArgs, ProcessListResult>({
    name: 'process_list',
    model: {
      description:
        'List the background processes of this session (started with exec background or tty): id, command, state, exit code, uptime, ports it listens on, bytes of output.',
      schema: processListArgsSchema,
      resultSchema: processListResultSchema,
      render: (result) =>
        result.processes.length === 0
          ? 'No background process was started in this session.'
          : result.processes.map(processLine).join('\n'),
    },
    gate: { kind: 'read' },
    card: { describe: () => ({ title: 'List background processes', subtitle: 'processes' }) },
    async execute() {
      return { processes: await Promise.all(table.list().map((process) => table.info(process))) };
    },
  });
}
