import { toolCommand } from './tool-command.ts';
import { serveCommand } from './serve-command.ts';
import { runCommand } from './run-command.ts';
import { sessionsCommand } from './sessions-command.ts';
import { mcpCommand } from './mcp-command.ts';
import { rewindCommand } from './rewind-command.ts';
import { closeSshConnections } from '../tools/ssh/ssh-pool.ts';
import { UsageError, type Command } from './command.ts';
import { terminalSafe } from './terminal-text.ts';

// `aether <command> …`: each command lives in its own file; this entry only wires them.

const commands: Record<string, Command> = {
  tool: toolCommand,
  serve: serveCommand,
  run: runCommand,
  sessions: sessionsCommand,
  mcp: mcpCommand,
  rewind: rewindCommand,
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? commands[name] : undefined;
  if (!command) {
    const list = Object.values(commands)
      .map((entry) => `  ${entry.usage}`)
      .join('\n');
    process.stderr.write(
      `${name && name !== '--help' ? `Unknown command: ${terminalSafe(name)}\n` : ''}Usage: aether <command>\n${list}\n`,
    );
    return name === '--help' ? 0 : 2;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      // A usage error can quote a session file or an argument: neither may drive the terminal.
      process.stderr.write(`${terminalSafe(error.message)}\nUsage: aether ${command.usage}\n`);
      return 2;
    }
    // Printed here rather than by Node, whose report of an uncaught error would show it raw.
    const report = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`aether ${name} failed: ${terminalSafe(report)}\n`);
    return 1;
  } finally {
    // Pooled SSH connections would keep a one-shot command alive until they idle out.
    await closeSshConnections();
  }
}
