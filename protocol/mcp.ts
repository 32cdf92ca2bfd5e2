import { z } from 'zod';

// What the panel's "MCP servers" screen shows and changes: each configured server with its status,
// its tools and the person's choices for them (kept in the app's home, never in the workspace).

export const MCP_TOOL_POLICIES = ['allow', 'ask', 'deny'] as const;
export const mcpToolPolicySchema = z.enum(MCP_TOOL_POLICIES);
export type McpToolPolicy = z.infer<typeof mcpToolPolicySchema>;

export type McpServerStatus = 'stopped' | 'starting' | 'ready' | 'failed' | 'disabled' | 'unapproved';

export interface McpToolView {
  /** The server's own name for the tool. */
  name: string;
  /** The name the model calls: `mcp__<server>__<tool>`. */
  full_name: string;
  description: string;
  read_only: boolean;
  destructive: boolean;
  enabled: boolean;
  /** The person's choice; null: the permission mode decides (read-only tools run, others ask). */
  policy: McpToolPolicy | null;
}

/** A secret a server's mcp.json entry names (`${secret:NAME}`): whether it is set, never its value. */
export interface McpSecretView {
  name: string;
  set: boolean;
  /** Where its value comes from: kept by the app (the desktop app's store) or the environment variable of its name. */
  from: 'app' | 'environment' | null;
}

export interface McpServerView {
  name: string;
  origin: 'user' | 'workspace';
  /** The file that defines it. */
  file: string;
  /** The command line it runs, or the URL it reaches. */
  command: string;
  status: McpServerStatus;
  /** Why it failed, or what it waits for. */
  failure: string | null;
  tools: McpToolView[];
  /** The last of what it wrote to stderr. */
  stderr: string;
  /** The secrets its headers (or env) name. */
  secrets: McpSecretView[];
  /** A remote server's OAuth sign-in; null for a command, or where this host cannot sign in. */
  sign_in: McpSignInView | null;
  /** Whether a command server runs in the sandbox; null for a remote server. */
  sandbox: McpSandboxView | null;
}

/**
 * A command server's sandbox: `sandboxed` (with its rules in a line), `outside` (and why), or
 * `unavailable` — it should run in one, none can start here, and it does not start outside unasked.
 */
export interface McpSandboxView {
  state: 'sandboxed' | 'outside' | 'unavailable';
  /** The rules in a line, why it runs outside, or why no sandbox can start and how to enable one. */
  detail: string;
  /** Who decided: the person on this screen, the server's mcp.json entry, or the default for where it is defined. */
  chosen_by: 'person' | 'config' | 'default';
}

/**
 * Where a remote server's sign-in stands: `waiting` for the person in the browser (at `url`, once
 * known), `signed_in` (tokens kept), `needed` (it asked for one), `unknown` (it has not asked yet).
 */
export type McpSignInView =
  { state: 'waiting'; url: string | null } | { state: 'signed_in' } | { state: 'needed' } | { state: 'unknown' };

export interface McpScreen {
  servers: McpServerView[];
  /** Configuration entries that could not be used. */
  problems: string[];
  /** Where the person's and the workspace's configuration files are. */
  files: { user: string; workspace: string };
  /** Whether secrets can be set here (the desktop app); otherwise they come from the environment. */
  secrets_storable: boolean;
  /** Who opens a sign-in's authorization page: the host (the desktop app's browser) or the panel's page (the web host). */
  sign_in_opens: 'host' | 'panel';
}

/** A secret's name: like an environment variable's, where a host without a store reads it. */
export const MCP_SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** The longest secret the screen takes (a header value). */
export const MCP_SECRET_MAX = 16_384;

const serverName = z.string().min(1).max(64);

/** One change made on the MCP servers screen. */
export const mcpChangeSchema = z.discriminatedUnion('action', [
  /** A fresh connection now (Start for a stopped server), whatever pause a crash left. */
  z.object({ action: z.literal('restart'), name: serverName }).strict(),
  /** Records the approval of a workspace server's command, then starts it. */
  z.object({ action: z.literal('approve'), name: serverName }).strict(),
  z.object({ action: z.literal('enable'), name: serverName, enabled: z.boolean() }).strict(),
  /** Runs a command server in the sandbox or outside it, whatever its mcp.json entry says; it restarts. */
  z.object({ action: z.literal('sandbox'), name: serverName, sandboxed: z.boolean() }).strict(),
  /** Connects a remote server again, sending the person to its authorization page (OAuth). */
  z.object({ action: z.literal('sign-in'), name: serverName }).strict(),
  /** Forgets a remote server's tokens and disconnects it. */
  z.object({ action: z.literal('sign-out'), name: serverName }).strict(),
  /** Sets (or with null forgets) a secret the server names; the value is never sent back. */
  z
    .object({
      action: z.literal('secret'),
      name: serverName,
      secret: z.string().regex(MCP_SECRET_NAME),
      value: z.string().min(1).max(MCP_SECRET_MAX).nullable(),
    })
    .strict(),
  z
    .object({
      action: z.literal('tool'),
      server: serverName,
      tool: z.string().min(1).max(256),
      enabled: z.boolean().optional(),
      /** null: back to what the permission mode decides. */
      policy: mcpToolPolicySchema.nullable().optional(),
    })
    .strict(),
]);
export type McpChange = z.infer<typeof mcpChangeSchema>;
