import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { PERMISSION_MODES } from '../../protocol/values.ts';
import { acpAgent } from '../acp/acp-agent.ts';
import { isPermissionMode } from '../agent/permissions.ts';
import { sessionsRoot } from '../agent/sessions.ts';
import { appVersion, configHome } from '../host/app-paths.ts';
import { createModelAdapter } from '../model/index.ts';
import { ModelConfigError, type ModelAdapter } from '../model/types.ts';
import { parseCommandLine, UsageError, type Command } from './command.ts';
import { openInBrowser } from './open-browser.ts';
import { terminalSafe } from './terminal-text.ts';

// `aether acp`: ÆtherCodex as an Agent Client Protocol agent on stdin/stdout, for an editor (Zed,
// a JetBrains IDE) or a headless client (acpx) to start. stdout carries ACP frames only; anything
// else goes to stderr. It runs until the client closes stdin; a turn still running then is
// stopped and its session stays on disk, to be loaded again.

const DISCONNECTED = 'The ACP client disconnected.';

export const acpCommand: Command = {
  usage:
    `acp [--model <id>] [--sessions DIR] [--permission-mode ${PERMISSION_MODES.join('|')}]  ` +
    `(an ACP agent on stdin/stdout for an editor to start; each session's cwd is its workspace)`,
  async run(argv) {
    const { values, positionals } = parseCommandLine(argv, {
      model: { type: 'string', short: 'm' },
      sessions: { type: 'string' },
      'permission-mode': { type: 'string' },
    });
    if (positionals.length > 0)
      throw new UsageError(`aether acp takes no prompt: the editor sends it (got "${positionals.join(' ')}").`);
    const mode = values['permission-mode'] ?? 'ask';
    if (!isPermissionMode(mode))
      throw new UsageError(`Unknown permission mode "${mode}": use ${PERMISSION_MODES.join(', ')}.`);
    const modelId = values.model ?? process.env['AETHERCODEX_MODEL'];
    if (!modelId)
      throw new UsageError(
        'Choose a model with --model (or AETHERCODEX_MODEL): anthropic:<model>, openai:<model>, compat:<baseURL>#<model>, or demo.',
      );
    let model: ModelAdapter;
    try {
      model = createModelAdapter(modelId);
    } catch (error) {
      if (error instanceof ModelConfigError) {
        process.stderr.write(`${terminalSafe(error.message)}\n`);
        return 2;
      }
      throw error;
    }
    // Whatever a library logs must not reach the client as a broken frame.
    console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
    const agent = acpAgent({
      model,
      sessionsRoot: sessionsRoot({ flag: values.sessions }),
      mcpHome: configHome(),
      mode,
      version: await appVersion(),
      // A remote MCP server's sign-in opens the person's browser; stdout is the client's, so it is said on stderr.
      openBrowser: async (url) => {
        process.stderr.write(`Sign in to an MCP server: ${terminalSafe(url.href)}\n`);
        const failed = await openInBrowser(url.href);
        if (failed) process.stderr.write(`${terminalSafe(failed)}\n`);
      },
    });
    const stream = ndJsonStream(
      Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
      Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
    );
    const connection = agent.app.connect(stream);
    const stopped = new Promise<void>((resolve) => {
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolve());
    });
    await Promise.race([connection.closed.catch(() => undefined), stopped]);
    await agent.closeAll(DISCONNECTED);
    connection.close();
    await model.close?.();
    return 0;
  },
};
