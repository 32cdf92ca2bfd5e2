import { UsageError, type Command } from './command.ts';
import { terminalSafe } from './terminal-text.ts';

// `aether <command> …`: each command lives in its own file; this entry only wires them. A command's
// file is imported when it runs, so `aether tool` never loads the web host or the model SDKs.

interface CommandEntry {
  load(): Promise<Command>;
  /** It may open SSH connections, which are closed when it ends. */
  ssh?: boolean;
}

const commands: Record<string, CommandEntry> = {
  tool: { load: async () => (await import('./tool-command.ts')).toolCommand, ssh: true },
  serve: { load: async () => (await import('./serve-command.ts')).serveCommand, ssh: true },
  run: { load: async () => (await import('./run-command.ts')).runCommand, ssh: true },
  sessions: { load: async () => (await import('./sessions-command.ts')).sessionsCommand },
  mcp: { load: async () => (await import('./mcp-command.ts')).mcpCommand },
  hooks: { load: async () => (await import('./hooks-command.ts')).hooksCommand },
  agents: { load: async () => (await import('./agents-command.ts')).agentsCommand },
  rewind: { load: async () => (await import('./rewind-command.ts')).rewindCommand },
  export: { load: async () => (await import('./export-command.ts')).exportCommand },
  acp: { load: async () => (await import('./acp-command.ts')).acpCommand, ssh: true },
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const entry = name && Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!entry) {
    // Only here are all the commands loaded, for their usage lines.
    const all = await Promise.all(Object.values(commands).map((known) => known.load()));
    const list = all.map((known) => `  ${known.usage}`).join('\n');
    process.stderr.write(
      `${name && name !== '--help' ? `Unknown command: ${terminalSafe(name)}\n` : ''}Usage: aether <command>\n${list}\n`,
    );
    return name === '--help' ? 0 : 2;
  }
  const command = await entry.load();
  // `aether run --help`: the command's usage, before anything is parsed or started.
  const options = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (options.includes('--help') || options.includes('-h')) {
    process.stdout.write(`Usage: aether ${command.usage}\n${command.help ? `\n${command.help}\n` : ''}`);
    return 0;
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
    if (entry.ssh) await (await import('../agent/process-end.ts')).closeSshConnections();
    // Lines another program appended to files this command just replaced: carried now, not lost at exit.
    if (entry.ssh) (await import('../agent/process-end.ts')).finishLateAppends();
  }
}
