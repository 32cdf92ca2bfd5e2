import { z } from 'zod';
import type { ChangedFile } from './changes.ts';

// The sandbox's rules as settings.json holds them (`sandbox`) and mcp.json holds a server's
// (`"sandbox": {...}`): what a sandboxed command may write besides the workspace, the hosts it may
// reach through the sandbox's proxy, its private temp folder's size and how many processes it may
// run at once. What is always hidden (the person's keys, the app's own folder) is not a rule.

const pathList = z.array(z.string().min(1).max(4096)).max(200);
/** `registry.npmjs.org`, `*.github.com`, `127.0.0.1:4873`: a host, a `*.` suffix, an optional port. */
export const sandboxHostSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(/^(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/, 'a host name, *.domain or host:port');

export const sandboxRulesSchema = z.object({
  /** Folders besides the workspace a command may write (a build's caches); `~/` is the home folder. */
  writable: pathList,
  /** More paths it may not read, on top of the secrets always hidden. */
  hidden: pathList,
  /** Hosts it may reach through the sandbox's proxy; empty: no network at all. */
  network: z.array(sandboxHostSchema).max(200),
  /** The size of its private /tmp, in MiB. */
  tmp_mib: z.number().int().min(1).max(65536),
  /** How many processes it may run at once. */
  max_processes: z.number().int().min(8).max(100000),
});
export type SandboxRules = z.infer<typeof sandboxRulesSchema> & {
  /**
   * When set, only these (with the system's program and library folders and the workspace) can be
   * read at all: an MCP server's `"sandbox": {"readable": [...]}`. Unset: the whole system, secrets hidden.
   */
  readable?: string[];
  /** The plan mode's sandbox: the workspace is read-only too, and nothing but the private /tmp is writable. */
  read_only?: true;
};

export const DEFAULT_SANDBOX_RULES: SandboxRules = {
  writable: ['~/.npm', '~/.cache'],
  hidden: [],
  network: [],
  tmp_mib: 512,
  max_processes: 1024,
};

/** A server's `"sandbox"` in mcp.json: `false` runs it outside; an object narrows or widens the defaults. */
export const mcpSandboxSchema = z.union([
  z.literal(false),
  sandboxRulesSchema.extend({ readable: pathList }).partial().strict(),
]);
export type McpSandbox = z.infer<typeof mcpSandboxSchema>;

/**
 * How far a command's preview has gone: listing the workspace (entries found), copying it (entries
 * of all), running the command, comparing the copy with it (entries of all).
 */
export const previewProgressSchema = z.object({
  phase: z.enum(['listing', 'copying', 'running', 'comparing']),
  done: z.number().int().min(0),
  total: z.number().int().min(0),
});
export type PreviewProgress = z.infer<typeof previewProgressSchema>;

/** A command's preview as the approval shows it: how the run in the sandbox ended, and what it would change. */
export interface CommandPreviewView {
  command: string;
  exit_code: number | null;
  status: string;
  /** The end of what it printed. */
  output: string;
  files: ChangedFile[];
  /** Why a real run may do more than the preview shows (it needed the network); null: nothing seen. */
  caveat: string | null;
}

/** The plan mode's sandbox: commands look and never change anything, nor reach the network. */
export const READ_ONLY_SANDBOX_RULES: SandboxRules = {
  ...DEFAULT_SANDBOX_RULES,
  writable: [],
  network: [],
  read_only: true,
};

/** The rules in a line: what a card, `/sandbox` and an approval show. */
export function describeSandbox(rules: SandboxRules): string {
  const network = rules.network.length === 0 ? 'no network' : `network to ${rules.network.join(', ')} only`;
  if (rules.read_only)
    return `read-only: writes only its own /tmp (${rules.tmp_mib} MiB); ${network}; at most ${rules.max_processes} processes; keys and the app's folder hidden`;
  const writes = ['the workspace', `/tmp (${rules.tmp_mib} MiB)`, ...rules.writable].join(', ');
  return `writes ${writes}; ${network}; at most ${rules.max_processes} processes; keys and the app's folder hidden`;
}
