import {
  processInputArgsSchema,
  processInputResultSchema,
  type ProcessInputArgs,
  type ProcessInputResult,
} from '../../../protocol/processes.ts';
import { defineTool, ToolError, type AnyTool } from '../tool.ts';
import type { ProcessTable } from './process-table.ts';
import { processLine } from './process-text.ts';

// `process_input`: types into a background process — its stdin, or its terminal's keyboard.
// Judged as the command it goes to (exec rules such as `exec(npm init *)` apply).

export function processInputTool(table: ProcessTable): AnyTool {
  return defineTool<ProcessInputArgs, ProcessInputResult>({
    name: 'process_input',
    model: {
      description:
        'Write text to the input of a background process (its stdin, or what is typed into its terminal). Read its answer with process_output (wait_for the line or prompt you expect).',
      schema: processInputArgsSchema,
      resultSchema: processInputResultSchema,
      render: (result) => `Wrote ${result.bytes} bytes to ${result.process.id}. ${processLine(result.process)}`,
    },
    gate: {
      kind: 'exec',
      ruleCommand: (args) => ({ prefix: '', line: commandOf(table, args.id) }),
    },
    card: {
      describe: (args) => ({
        title: `Type into ${args.id}`,
        subtitle: args.text.length > 60 ? `${args.text.slice(0, 59)}…` : args.text,
        detail: `${commandOf(table, args.id)}\n\n${args.text}`,
      }),
    },
    async execute(args) {
      const process = table.get(args.id);
      if (!process.running) {
        const info = await table.info(process);
        throw new ToolError(
          `${args.id} is not running (${processLine(info)}), so it takes no input. Start it again with exec if it is still needed.`,
        );
      }
      try {
        process.write(args.text);
      } catch (error) {
        throw new ToolError(`Could not write to ${args.id}: ${(error as Error).message}.`);
      }
      return { process: await table.info(process), bytes: Buffer.byteLength(args.text) };
    },
  });
}

/** The command line the process runs, for the rules and the question; the id when there is none. */
function commandOf(table: ProcessTable, id: string): string {
  return table.list().find((process) => process.id === id)?.command ?? id;
}
