import { approveMcpServer } from '../agent/mcp.ts';
import { probeMcpServer } from '../agent/mcp-probe.ts';
import { workspaceRoot } from '../agent/workspace-files.ts';
import { configHome } from '../host/app-paths.ts';
import { parseCommandLine, UsageError, type Command } from './command.ts';
import { startCliMcp } from './mcp-setup.ts';
import { openInBrowser } from './open-browser.ts';
import { terminalSafe } from './terminal-text.ts';

// `aether mcp list`: every configured MCP server with its status and tools (servers are started to
// list them, then stopped). `aether mcp approve <name>`: the person's approval of a workspace server,
// after the command it runs is printed. `aether mcp probe URL`: the client, once, against a remote
// server: it connects, lists the tools, calls one if asked, and says what happened at each step.

export const mcpCommand: Command = {
  usage:
    `mcp list|approve <name> [--workspace DIR]  |  mcp probe URL [--call TOOL] [--args JSON] ` +
    `[--header 'Name: value']… [--elicit decline|defaults] [--sign-in browser|follow] [--client-metadata-url URL] [--client-id ID --client-secret ENV_VAR]`,
  async run(argv) {
    const { values, positionals } = parseCommandLine(argv, {
      workspace: { type: 'string', short: 'w' },
      call: { type: 'string' },
      args: { type: 'string' },
      header: { type: 'string', multiple: true },
      elicit: { type: 'string' },
      'sign-in': { type: 'string' },
      'client-metadata-url': { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
    });
    const [action, name, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`Unexpected arguments: ${extra.join(' ')}.`);
    if (action === 'probe') return probe(name, values);
    const workspace = await workspaceRoot(values.workspace ?? '.').catch((error: Error) => {
      throw new UsageError(error.message);
    });
    if (action === 'list' && !name) return list(workspace);
    if (action === 'approve' && name) return approve(workspace, name);
    throw new UsageError(action === 'approve' ? 'Name the server to approve.' : 'Say list or approve <name>.');
  },
};

interface ProbeFlags {
  call?: string | undefined;
  args?: string | undefined;
  header?: string[] | undefined;
  elicit?: string | undefined;
  'sign-in'?: string | undefined;
  'client-metadata-url'?: string | undefined;
  'client-id'?: string | undefined;
  'client-secret'?: string | undefined;
}

async function probe(url: string | undefined, flags: ProbeFlags): Promise<number> {
  if (!url || !/^https?:\/\//.test(url))
    throw new UsageError("Give the server's URL: aether mcp probe http://host/mcp.");
  const elicit = flags.elicit ?? 'decline';
  if (elicit !== 'decline' && elicit !== 'defaults')
    throw new UsageError(`--elicit takes decline or defaults, not "${elicit}".`);
  let args: Record<string, unknown> = {};
  if (flags.args !== undefined) {
    const parsed: unknown = (() => {
      try {
        return JSON.parse(flags.args ?? '');
      } catch (error) {
        throw new UsageError(`--args is not JSON: ${(error as Error).message}.`);
      }
    })();
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new UsageError("--args takes a JSON object: the tool's arguments by name.");
    args = parsed as Record<string, unknown>;
  }
  if (flags.args !== undefined && !flags.call) throw new UsageError('--args goes with --call TOOL.');
  const headers: Record<string, string> = {};
  for (const header of flags.header ?? []) {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header takes 'Name: value', not "${header}".`);
    headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
  }
  const signIn = flags['sign-in'] ?? 'browser';
  if (signIn !== 'browser' && signIn !== 'follow')
    throw new UsageError(`--sign-in takes browser or follow, not "${signIn}".`);
  const metadata = flags['client-metadata-url'];
  const clientId = flags['client-id'];
  // A secret on the command line would be in the shell's history: it comes from the environment.
  const clientSecret = flags['client-secret'] ? process.env[flags['client-secret']] : undefined;
  if (flags['client-secret'] && !clientSecret)
    throw new UsageError(`--client-secret names an environment variable, and ${flags['client-secret']} is not set.`);
  const worked = await probeMcpServer({
    url,
    headers,
    signIn:
      signIn === 'follow'
        ? { how: 'follow' }
        : {
            how: 'browser',
            open: async (page) => {
              process.stdout.write(terminalSafe(`Open this address to sign in: ${page.href}\n`));
              const failed = await openInBrowser(page.href);
              if (failed) process.stderr.write(`${terminalSafe(failed)}\n`);
            },
          },
    ...(metadata ? { clientMetadataUrl: metadata } : {}),
    ...(clientId ? { client: { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) } } : {}),
    ...(flags.call ? { call: { name: flags.call, args } } : {}),
    elicit,
    say: (line) => process.stdout.write(`${terminalSafe(line)}\n`),
  });
  return worked ? 0 : 1;
}

async function list(workspace: string): Promise<number> {
  const servers = await startCliMcp(workspace);
  try {
    const states = servers.states();
    if (states.length === 0) {
      process.stdout.write(`No MCP servers are configured (${configHome()}/mcp.json, .aethercodex/mcp.json).\n`);
    }
    for (const state of states) {
      const tools = state.tools.length > 0 ? state.tools.join(', ') : '(none)';
      process.stdout.write(terminalSafe(`${state.name} (${state.origin}): ${state.status}\n  tools: ${tools}\n`));
    }
  } finally {
    await servers.close();
  }
  return 0;
}

async function approve(workspace: string, name: string): Promise<number> {
  const server = await approveMcpServer(configHome(), workspace, name).catch((error: Error) => {
    throw new UsageError(error.message);
  });
  process.stdout.write(terminalSafe(`Approved "${server.name}" for ${workspace}; it runs:\n  ${server.commandLine}\n`));
  return 0;
}
