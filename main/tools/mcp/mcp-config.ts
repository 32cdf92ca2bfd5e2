import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { errorMessage } from '../../../protocol/errors.ts';
import { badSecretReferences } from './mcp-secrets.ts';
import { DEFAULT_SANDBOX_RULES, mcpSandboxSchema, type SandboxRules } from '../../../protocol/sandbox.ts';

// MCP server configuration in the format Claude Desktop and Cursor write:
// `{"mcpServers": {name: {command, args, env, cwd} | {url, headers}}}`. Two files: the person's own
// (`mcp.json` in the app's home) and the workspace's (`.aethercodex/mcp.json`). A server the
// workspace defines runs a command from the repository, so it starts only once the person approved it.
// Header and env values may name secrets (`${secret:NAME}`, mcp-secrets.ts) instead of holding them.

/** How long a call may go without progress, and how long at most however often it reports progress. */
const timeouts = {
  callTimeoutSeconds: z.number().positive().max(86_400).optional(),
  maxCallSeconds: z
    .number()
    .positive()
    .max(7 * 86_400)
    .optional(),
};

const stdioServerSchema = z.object({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
  disabled: z.boolean().optional(),
  /** false: outside the sandbox; rules: inside, these over the defaults. Unset: inside for a workspace server. */
  sandbox: mcpSandboxSchema.optional(),
  ...timeouts,
});

const remoteServerSchema = z.object({
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).default({}),
  disabled: z.boolean().optional(),
  ...timeouts,
});

const serverSchema = z.union([stdioServerSchema.strict(), remoteServerSchema.strict()]);

export const mcpFileSchema = z.object({ mcpServers: z.record(z.string(), z.unknown()).default({}) });

export type StdioServerConfig = z.infer<typeof stdioServerSchema>;
export type RemoteServerConfig = z.infer<typeof remoteServerSchema>;

export interface McpServerConfig {
  name: string;
  /** Where it was defined: a workspace server needs the person's approval before it starts. */
  origin: 'user' | 'workspace';
  /** The file that defines it, for messages. */
  file: string;
  transport: StdioServerConfig | RemoteServerConfig;
  disabled: boolean;
}

export interface McpConfig {
  servers: McpServerConfig[];
  /** Entries that could not be used, each saying which file and server and why. */
  problems: string[];
}

export const MCP_FILE = 'mcp.json';

export function userMcpFile(home: string): string {
  return path.join(home, MCP_FILE);
}

export function workspaceMcpFile(workspace: string): string {
  return path.join(workspace, '.aethercodex', MCP_FILE);
}

export function isStdio(transport: McpServerConfig['transport']): transport is StdioServerConfig {
  return 'command' in transport;
}

/** What the server runs or reaches, in one line: the approval names it. */
export function serverCommandLine(server: McpServerConfig): string {
  const { transport } = server;
  if (!isStdio(transport)) return transport.url;
  return [transport.command, ...transport.args].map(quoteWord).join(' ');
}

/**
 * The sandbox a stdio server runs in: its `"sandbox"` rules over the defaults; a workspace server
 * is sandboxed unless its entry says `"sandbox": false`, the person's own only when it asks to be.
 * The person's choice on the MCP screen (`chosen`) decides over both.
 */
export function serverSandbox(server: McpServerConfig, chosen: boolean | null = null): SandboxRules | null {
  const { transport } = server;
  if (!isStdio(transport) || chosen === false) return null;
  if (chosen === null && transport.sandbox === false) return null;
  if (chosen === null && transport.sandbox === undefined && server.origin === 'user') return null;
  const rules: SandboxRules = { ...DEFAULT_SANDBOX_RULES };
  for (const [key, value] of Object.entries(transport.sandbox === false ? {} : (transport.sandbox ?? {})))
    if (value !== undefined) Object.assign(rules, { [key]: value });
  return rules;
}

/** The entries whose values may name secrets: a remote server's headers, a stdio server's env. */
export function serverSecretEntries(server: McpServerConfig): Record<string, string> {
  return isStdio(server.transport) ? server.transport.env : server.transport.headers;
}

/** Changes when anything the approval covered changes (command, arguments, environment, folder, URL). */
export function serverFingerprint(server: McpServerConfig): string {
  return createHash('sha256').update(JSON.stringify(server.transport)).digest('hex');
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Reads both files; a server named in both is the person's own (a repository cannot replace it). */
export async function loadMcpConfig(home: string, workspace: string): Promise<McpConfig> {
  const problems: string[] = [];
  const user = await readServers(userMcpFile(home), 'user', workspace, problems);
  const local = await readServers(workspaceMcpFile(workspace), 'workspace', workspace, problems);
  const names = new Set(user.map((server) => server.name));
  for (const server of local) {
    if (names.has(server.name)) {
      problems.push(
        `${server.file}: the server "${server.name}" is also defined in ${userMcpFile(home)}; that definition is used.`,
      );
    }
  }
  return { servers: [...user, ...local.filter((server) => !names.has(server.name))], problems };
}

async function readServers(
  file: string,
  origin: McpServerConfig['origin'],
  workspace: string,
  problems: string[],
): Promise<McpServerConfig[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    problems.push(`${file} could not be read: ${errorMessage(error)}`);
    return [];
  }
  let parsed: z.infer<typeof mcpFileSchema>;
  try {
    parsed = mcpFileSchema.parse(JSON.parse(text));
  } catch (error) {
    const why = error instanceof z.ZodError ? z.prettifyError(error) : errorMessage(error);
    problems.push(`${file} is not an MCP configuration ({"mcpServers": {...}}): ${why}`);
    return [];
  }
  const servers: McpServerConfig[] = [];
  for (const [name, entry] of Object.entries(parsed.mcpServers)) {
    if (!/^[\w.-]{1,64}$/.test(name)) {
      problems.push(`${file}: the server name "${name}" may use only letters, digits, "_", "." and "-" (1–64).`);
      continue;
    }
    const checked = serverSchema.safeParse(entry);
    if (!checked.success) {
      problems.push(
        `${file}: the server "${name}" needs {command, args?, env?, cwd?} or {url, headers?}: ${z.prettifyError(checked.error)}`,
      );
      continue;
    }
    const transport = checked.data;
    const bad = badSecretReferences(isStdio(transport) ? transport.env : transport.headers);
    if (bad.length > 0) {
      problems.push(
        `${file}: the server "${name}" names the secret ${bad.map((ref) => `"${ref}"`).join(', ')}; a secret's name is letters, digits and "_", not starting with a digit, as in \${secret:GITHUB_TOKEN}.`,
      );
      continue;
    }
    // A relative folder means the workspace's for a workspace server, the home's otherwise.
    if (isStdio(transport) && transport.cwd !== undefined) {
      transport.cwd = path.resolve(origin === 'workspace' ? workspace : path.dirname(file), transport.cwd);
    }
    servers.push({ name, origin, file, transport, disabled: transport.disabled ?? false });
  }
  return servers;
}

/** mcp.json's servers and the host's; a name mcp.json already uses keeps mcp.json's server. */
export function withExtraServers(config: McpConfig, extra: readonly McpServerConfig[]): McpConfig {
  const names = new Set(config.servers.map((server) => server.name));
  const clashing = extra.filter((server) => names.has(server.name));
  return {
    servers: [...config.servers, ...extra.filter((server) => !names.has(server.name))],
    problems: [
      ...config.problems,
      ...clashing.map(
        (server) => `${server.file}: the server "${server.name}" is not started; mcp.json has one of that name.`,
      ),
    ],
  };
}
