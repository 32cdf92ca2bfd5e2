import { randomUUID } from 'node:crypto';
import type { ToolCompletedEvent } from '../../protocol/events.ts';
import { directToolRegistry } from '../agent/tool-runs.ts';
import { workspaceRoot } from '../agent/workspace-files.ts';
import { StatusRecorder } from '../status/sink.ts';
import { parseCommandLine, UsageError, type Command } from './command.ts';
import { ExitSignals } from './exit-signals.ts';
import { terminalJson } from './terminal-text.ts';

// `aether tool <name> '<json args>' --workspace DIR`: one call through the whole pipeline,
// printed as both routes. A call the person typed is its own approval; confinement still applies.
// Ctrl-C, SIGTERM or SIGHUP stop the call (exit-signals.ts); the exit code is then 128 + the signal's.

export const toolCommand: Command = {
  usage: `tool <name> '<json args>' --workspace DIR [--sessions DIR]`,
  async run(argv) {
    const { values, positionals } = parseCommandLine(argv, {
      workspace: { type: 'string', short: 'w' },
      sessions: { type: 'string' },
    });
    const [name, json = '{}', ...extra] = positionals;
    if (!name) throw new UsageError('Name the tool to run.');
    if (extra.length > 0)
      throw new UsageError(`Unexpected arguments: ${extra.join(' ')}. Quote the JSON arguments as one word.`);
    let args: unknown;
    try {
      args = JSON.parse(json);
    } catch (error) {
      throw new UsageError(`The arguments are not valid JSON: ${(error as Error).message}`);
    }
    const workspace = await workspaceRoot(values.workspace ?? '.').catch((error: Error) => {
      throw new UsageError(error.message);
    });

    // Until the call runs, a signal ends the command at once with what it started; then it stops the call.
    const signals = new ExitSignals();
    try {
      return await callTool(name, args, workspace, values.sessions, signals);
    } finally {
      signals.dispose();
    }
  },
};

async function callTool(
  name: string,
  args: unknown,
  workspace: string,
  sessions: string | undefined,
  signals: ExitSignals,
): Promise<number> {
  const recorder = new StatusRecorder();
  // MCP servers start only when an MCP tool is named: a built-in call starts nothing.
  const mcp = name.startsWith('mcp__') ? await (await import('./mcp-setup.ts')).startCliMcp(workspace) : null;
  // Only the named built-in tool's module loads (all of them for run_code or any other name). What the
  // call leaves (a spilled output, an MCP result's blobs) goes to a folder under the sessions folder,
  // made only then: a quick call leaves nothing behind.
  const registry = await directToolRegistry({ workspace, sessions, name, sink: recorder, more: mcp?.tools() ?? [] });
  const stop = new AbortController();
  signals.stopWith(() => stop.abort());
  const outcome = await registry
    .call({ callId: `cli-${randomUUID()}`, name, args, signal: stop.signal })
    .finally(() => mcp?.close());
  const echo: ToolCompletedEvent | undefined = recorder.ofType('tool_completed')[0];
  // JSON.stringify escapes C0 controls; terminalJson escapes the rest a terminal could act on.
  process.stdout.write(`${terminalJson({ model: outcome.content, echo })}\n`);
  return signals.exitCode ?? 0;
}
