import { workspaceRoot } from '../agent/workspace-files.ts';
import { servePanel } from '../host/web/serve.ts';
import { parseCommandLine, UsageError, type Command } from './command.ts';
import { ExitSignals, stopReason, type ExitSignal } from './exit-signals.ts';
import { openInBrowser } from './open-browser.ts';
import { terminalSafe } from './terminal-text.ts';

// `aether serve --workspace DIR`: the panel in a browser on this machine. Prints one URL with the
// access token and runs until Ctrl+C, SIGTERM or SIGHUP, which stop a running turn (exit-signals.ts).

export const serveCommand: Command = {
  usage: 'serve --workspace DIR [--port N] [--model id] [--sessions DIR] [--allow-origin URL] [--open]',
  async run(argv) {
    const { values, positionals } = parseCommandLine(argv, {
      workspace: { type: 'string', short: 'w' },
      port: { type: 'string', short: 'p' },
      model: { type: 'string', short: 'm' },
      sessions: { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
      open: { type: 'boolean' },
    });
    if (positionals.length > 0) throw new UsageError(`Unexpected arguments: ${positionals.join(' ')}.`);
    if (!values.workspace) throw new UsageError('Name the folder to work in with --workspace DIR.');
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port takes a number from 0 to 65535, not ${values.port}.`);
    const allowOrigins = values['allow-origin'] ?? [];
    for (const origin of allowOrigins) {
      if (!URL.canParse(origin) || new URL(origin).origin !== origin)
        throw new UsageError(`--allow-origin takes an origin such as http://localhost:5173, not ${origin}.`);
    }
    const workspace = await workspaceRoot(values.workspace).catch((error: Error) => {
      throw new UsageError(error.message);
    });
    const signals = new ExitSignals();
    try {
      return await serve(workspace, port, allowOrigins, values, signals);
    } finally {
      signals.dispose();
    }
  },
};

async function serve(
  workspace: string,
  port: number,
  allowOrigins: string[],
  values: { model?: string | undefined; sessions?: string | undefined; open?: boolean | undefined },
  signals: ExitSignals,
): Promise<number> {
  let panel;
  try {
    panel = await servePanel({
      workspace,
      port,
      allowOrigins,
      ...(values.model ? { model: values.model } : {}),
      ...(values.sessions ? { sessions: values.sessions } : {}),
    });
  } catch (error) {
    process.stderr.write(`${terminalSafe((error as Error).message)}\n`);
    return 1;
  }
  process.stdout.write(`ÆtherCodex is serving ${workspace}\nOpen ${panel.url}\n`);
  if (values.open) {
    const failed = await openInBrowser(panel.url);
    if (failed) process.stderr.write(`${failed}\n`);
  }
  const signal = await new Promise<ExitSignal>((resolve) => signals.stopWith(resolve));
  await panel.close(stopReason(signal, 'aether serve'));
  return 0;
}
