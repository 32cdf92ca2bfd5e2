import type { Result } from '../../../protocol/api.ts';
import { MCP_SECRET_NAME } from '../../../protocol/mcp.ts';

// Secrets an MCP server's configuration names instead of holding: `"Authorization": "Bearer
// ${secret:GITHUB_TOKEN}"` in a remote server's headers (or a stdio server's env). The value comes
// from a secret store — encrypted with the OS keychain in the desktop app, the environment variable
// of the same name otherwise — and only at the moment of connecting, so mcp.json, the session log,
// the approval and the panel only ever see the name.

export const SECRET_NAME = MCP_SECRET_NAME;
const REFERENCE = /\$\{secret:([^}]*)\}/g;

export interface McpSecretStore {
  /** Whether the panel can keep a secret (the desktop app); otherwise it comes from the environment. */
  readonly storable: boolean;
  get(name: string): Promise<string | undefined>;
  /** Where `get` finds the value: kept by the app, or the environment variable of that name. */
  from(name: string): Promise<'app' | 'environment' | null>;
  /** `null` forgets it. Refusals are values saying what to do instead. */
  set(name: string, value: string | null): Promise<Result<void>>;
}

/** Secrets from the environment only (the web host and the command line). */
export class EnvSecretStore implements McpSecretStore {
  readonly storable = false;
  private readonly env: NodeJS.ProcessEnv;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.env = env;
  }

  async get(name: string): Promise<string | undefined> {
    const value = this.env[name]?.trim();
    return value ? value : undefined;
  }

  async from(name: string): Promise<'environment' | null> {
    return (await this.get(name)) === undefined ? null : 'environment';
  }

  async set(name: string): Promise<Result<void>> {
    return {
      ok: false,
      error: `Secrets cannot be stored from a browser window or the command line. Set the environment variable ${name} and restart \`aether serve\`, or use the desktop app, which keeps secrets encrypted.`,
    };
  }
}

/** Where the secrets go: header or environment entries whose values may name secrets. */
type Entries = Record<string, string>;

/** The secrets the values name, once each, in order. */
export function secretReferences(entries: Entries): string[] {
  const names = new Set<string>();
  for (const value of Object.values(entries)) {
    for (const match of value.matchAll(REFERENCE)) names.add(match[1] ?? '');
  }
  return [...names];
}

/** The references that are not valid names, for the configuration's problems. */
export function badSecretReferences(entries: Entries): string[] {
  return secretReferences(entries).filter((name) => !SECRET_NAME.test(name));
}

/** A value a header or environment can carry: one line, nothing empty. Null when fine. */
export function secretValueProblem(name: string, value: string): string | null {
  if (value.trim() === '') return `The secret ${name} is empty.`;
  if (/[\r\n\0]/.test(value)) return `The secret ${name} must be one line (no line breaks).`;
  return null;
}

export type ResolvedEntries =
  { ok: true; entries: Entries; values: string[] } | { ok: false; missing: string[]; invalid: string[] };

/** The entries with each `${secret:NAME}` replaced by the stored value; `values` lets messages hide them. */
export async function resolveSecrets(entries: Entries, store: McpSecretStore): Promise<ResolvedEntries> {
  const names = secretReferences(entries);
  const found = new Map<string, string>();
  const missing: string[] = [];
  const invalid: string[] = [];
  for (const name of names) {
    const value = SECRET_NAME.test(name) ? await store.get(name) : undefined;
    if (value === undefined) missing.push(name);
    else if (secretValueProblem(name, value)) invalid.push(name);
    else found.set(name, value);
  }
  if (missing.length > 0 || invalid.length > 0) return { ok: false, missing, invalid };
  const resolved: Entries = {};
  for (const [key, value] of Object.entries(entries)) {
    resolved[key] = value.replace(REFERENCE, (_, name: string) => found.get(name) ?? '');
  }
  return { ok: true, entries: resolved, values: [...found.values()] };
}

/** What a server whose secrets are missing says, naming each secret and where to set it. */
export function missingSecretsMessage(
  server: string,
  file: string,
  problem: { missing: string[]; invalid: string[] },
  store: McpSecretStore,
): string {
  const parts: string[] = [];
  const { missing, invalid } = problem;
  if (missing.length > 0) {
    const names = missing.join(', ');
    const where = store.storable
      ? `Set ${missing.length === 1 ? 'it' : 'them'} on the MCP servers screen (Settings), or set the environment variable${missing.length === 1 ? '' : 's'} ${names} and restart the app.`
      : `Set the environment variable${missing.length === 1 ? '' : 's'} ${names} where the panel or command runs, then start it again.`;
    parts.push(
      `The MCP server "${server}" needs the secret${missing.length === 1 ? '' : 's'} ${names}, named in ${file}, and none is set. ${where}`,
    );
  }
  if (invalid.length > 0) {
    parts.push(
      `The secret${invalid.length === 1 ? '' : 's'} ${invalid.join(', ')} of the MCP server "${server}" must be one line: set ${invalid.length === 1 ? 'it' : 'them'} again.`,
    );
  }
  return parts.join(' ');
}

/** Replaces every secret value in a message (an error from the transport may echo a header). */
export function redactSecrets(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of values) if (value.length >= 4) out = out.split(value).join('[secret]');
  return out;
}
