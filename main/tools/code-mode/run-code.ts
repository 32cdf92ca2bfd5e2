import { programSubtitle } from './program-subtitle.ts';
import { runProgram, type ProgramOutcome } from './run-code-host.ts';
import { toolDeclarations, type DeclaredTool } from './run-code-declarations.ts';
import { DEFAULT_RUN_CODE_LIMITS, type LogLine, type RunCodeLimits } from './run-code-protocol.ts';
import { codeEchoSchema, ECHO_TEXT_LIMIT } from '../../../protocol/echo.ts';
import { truncate } from '../../status/preview.ts';
import { declareEcho, defineTool, type AnyTool, type ToolKind } from '../tool.ts';
import { runCodeArgsSchema, type RunCodeArgs } from '../../../protocol/tool-args.ts';

// run_code (Code Mode): the model writes a JavaScript program that calls the other tools
// as `await tools.<name>(args)`. The program runs in QuickJS inside a worker thread; every nested
// call goes through the same registry, gate and confinement, emits a dispatch event and owns no
// card. One outer call is one card. The registry pipeline owns the final content: on success this
// renderer gives captured logs then the return value (or the no-output marker); failures, denials,
// post-execution policies and spill are the registry's.

export type RunCodeResult = ProgramOutcome;

export const NO_OUTPUT = '(no output)';

/** What run_code needs to know of a tool it exposes: a registry's tools or a plain list both fit. */
export interface ExposedTool extends DeclaredTool {
  gate: { kind: ToolKind };
}

export interface RunCodeOptions {
  /** The tools programs may call (run_code itself and other `code` tools excluded); read lazily. */
  tools: () => readonly ExposedTool[];
  limits?: Partial<RunCodeLimits>;
}

export function createRunCodeTool(options: RunCodeOptions): AnyTool {
  const limits: RunCodeLimits = { ...DEFAULT_RUN_CODE_LIMITS, ...options.limits };
  const callable = (): ExposedTool[] => options.tools().filter((tool) => tool.gate.kind !== 'code');
  let described: { key: string; text: string } | null = null;

  return defineTool<RunCodeArgs, RunCodeResult>({
    name: 'run_code',
    model: {
      // Built on first read, not at registration: the tool list is complete only once every tool is registered.
      get description(): string {
        const tools = callable();
        const key = tools.map((tool) => tool.name).join('\n');
        if (described?.key !== key) described = { key, text: describe(tools, limits) };
        return described.text;
      },
      schema: runCodeArgsSchema,
      render: renderRunCode,
    },
    gate: { kind: 'code' },
    card: {
      describe: (args) => ({
        title: 'Run a program that calls tools',
        subtitle: programSubtitle(args.code),
        detail: args.code,
      }),
      // The card shows the final content (the Code Mode card); a spilled one falls back to the text
      // echo, its preview.
      echo: declareEcho(codeEchoSchema, (result: RunCodeResult) => ({
        kind: 'code',
        output: truncate(renderRunCode(result), ECHO_TEXT_LIMIT),
        empty: result.logs.length === 0 && (result.output === null || result.output === ''),
      })),
    },
    async execute(args, ctx) {
      return runProgram(args.code, {
        toolNames: callable().map((tool) => tool.name),
        limits,
        signal: ctx.signal,
        dispatch: (name, nestedArgs, nestedOptions) => ctx.dispatch(name, nestedArgs, nestedOptions),
      });
    },
  });
}

/** Captured logs in order, then the return value; the explicit marker when there is neither. */
export function renderRunCode(result: RunCodeResult): string {
  const parts = result.logs.map(logText);
  if (result.output !== null && result.output !== '') parts.push(result.output);
  return parts.length > 0 ? parts.join('\n') : NO_OUTPUT;
}

function logText(line: LogLine): string {
  return line.level === 'warn' || line.level === 'error' ? `[${line.level}] ${line.text}` : line.text;
}

function describe(tools: readonly ExposedTool[], limits: RunCodeLimits): string {
  return `Run a JavaScript program that calls the other tools, to chain calls, loop over results, or filter a large output before you read it.

The program is the body of an async function: \`await\` tool calls and \`return\` the value you want back (a string as it is, anything else as JSON). console.log / info / warn / error lines are captured and come before the value.
\`await tools.<name>(args)\` runs one tool with the same permissions as a direct call and resolves to the tool's structured result (its text when it has none; where the type below says unknown, log one result to see its fields); a failed or refused call rejects with an Error whose message is the tool's error text. Promise.all runs calls concurrently.
The program runs in an isolated interpreter: no require, import, file system, network, process or timers; only \`tools\` and \`console\`. Limits per run: ${limits.wallMs / 1000} s (time a call waits for the person's approval not counted), ${limits.memoryBytes / 1024 / 1024} MiB heap, ${limits.maxCalls} tool calls, ${limits.logBytes / 1024} KiB of logs.

\`\`\`ts
${toolDeclarations(tools)}
\`\`\``;
}
