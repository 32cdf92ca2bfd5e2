import {
  PROCESS_OUTPUT_DEFAULT_WAIT_S,
  PROCESS_READ_MAX_BYTES,
  processOutputArgsSchema,
  processOutputResultSchema,
  type ProcessOutputArgs,
  type ProcessOutputResult,
} from '../../../protocol/processes.ts';
import { formatBytes } from '../../../protocol/format.ts';
import { defineTool, type AnyTool } from '../tool.ts';
import type { WaitEnd } from './background-process.ts';
import { linePattern } from './line-pattern.ts';
import type { ProcessTable } from './process-table.ts';
import { processLine } from './process-text.ts';

// `process_output`: what a background process printed since the last read (or from an offset, or
// its last lines), after waiting, when asked, for a line that matches a pattern — a dev server's
// "ready" line, a test watcher's summary. A terminal's screen comes with it as text.

export function processOutputTool(table: ProcessTable): AnyTool {
  return defineTool<ProcessOutputArgs, ProcessOutputResult>({
    name: 'process_output',
    model: {
      description:
        'Read the output of a background process: what it printed since your last read of it (the first read starts at its beginning), ' +
        'or from `since`, or its last `tail` lines. With wait_for, first wait until a new line matches that regular expression, the process exits, or timeout_s passes. ' +
        'A process in a terminal also gives its screen as text.',
      schema: processOutputArgsSchema,
      resultSchema: processOutputResultSchema,
      render: renderOutput,
    },
    gate: { kind: 'read' },
    card: {
      describe: (args) => ({
        title: args.wait_for ? `Wait for /${args.wait_for}/ in ${args.id}` : `Read the output of ${args.id}`,
        subtitle: args.wait_for ?? args.id,
      }),
    },
    async execute(args, ctx) {
      const process = table.get(args.id);
      const pattern = args.wait_for !== undefined ? linePattern(args.wait_for) : null;
      const from = args.since ?? process.cursor;
      let waited: WaitEnd | null = null;
      if (pattern) {
        const timeoutMs = (args.timeout_s ?? PROCESS_OUTPUT_DEFAULT_WAIT_S) * 1000;
        waited = await process.waitFor(pattern, from, timeoutMs, ctx.signal);
      }
      await process.screen?.settled();
      const slice =
        args.tail !== undefined
          ? process.output.tail(args.tail, PROCESS_READ_MAX_BYTES)
          : process.output.read(from, PROCESS_READ_MAX_BYTES);
      if (args.tail === undefined) process.cursor = Math.max(process.cursor, slice.to);
      return {
        process: await table.info(process),
        output: slice.text,
        from: slice.from,
        next_since: slice.to,
        dropped_bytes: args.tail === undefined ? slice.dropped : 0,
        ...(process.screen ? { screen: process.screen.text() } : {}),
        ...(waited ? { waited: waited.kind } : {}),
        ...(waited?.kind === 'matched' ? { matched_line: waited.line } : {}),
      };
    },
  });
}

function renderOutput(result: ProcessOutputResult, args: ProcessOutputArgs): string {
  const lines = [processLine(result.process)];
  if (result.waited === 'matched') lines.push(`Matched: ${result.matched_line ?? ''}`);
  if (result.waited === 'timed_out')
    lines.push(
      `No line matched /${args.wait_for ?? ''}/ within ${args.timeout_s ?? PROCESS_OUTPUT_DEFAULT_WAIT_S} s; it is still ${result.process.state}.`,
    );
  if (result.waited === 'exited') lines.push(`It ended before a line matched /${args.wait_for ?? ''}/.`);
  if (result.dropped_bytes > 0) {
    const files = result.process.output_files ?? [];
    const where = files.length > 0 ? ` (what is kept on disk is in ${files.join(' and ')})` : '';
    lines.push(
      `[${formatBytes(result.dropped_bytes)} before this are not shown${where}; this starts at byte ${result.from}.]`,
    );
  }
  if (result.screen !== undefined) {
    lines.push('Screen:', result.screen === '' ? '(blank)' : result.screen);
    return lines.join('\n');
  }
  lines.push(result.output === '' ? '(no new output)' : `Output (bytes ${result.from}–${result.next_since}):`);
  return result.output === '' ? lines.join('\n') : `${lines.join('\n')}\n${result.output}`;
}
