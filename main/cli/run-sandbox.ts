import path from 'node:path';
import { z } from 'zod';
import type { PermissionMode } from '../../protocol/api.ts';
import { sandboxHostSchema, sandboxRulesSchema, type SandboxRules } from '../../protocol/sandbox.ts';
import { readSettingsFile } from '../host/settings-file.ts';
import { readSettingsFields } from '../host/settings-fields.ts';
import { SETTINGS_FILE } from '../host/settings-store.ts';
import { UsageError } from './command.ts';

// The sandbox `aether run` runs commands in: settings.json's `sandbox` (the rules the panel's
// Settings show and change), then `--sandbox-rules JSON` over it field by field, then the hosts of
// `--sandbox-allow` added to its network list. Only the sandbox mode reads them.

export interface RunSandboxFlags {
  /** `--sandbox-rules`: a JSON object of rules, each field replacing the settings' own. */
  rules: string | undefined;
  /** `--sandbox-allow`, each a host the network list gains. */
  hosts: string[];
}

export interface RunSandbox {
  rules: SandboxRules;
  /** Where the rules came from, in a line: what the run says on stderr before it starts. */
  source: string;
  /** What of settings.json's `sandbox` could not be used, each a sentence. */
  notices: string[];
}

const flagRulesSchema = sandboxRulesSchema.partial().strict();

export async function runSandbox(mode: PermissionMode, flags: RunSandboxFlags, home: string): Promise<RunSandbox> {
  const badHosts = flags.hosts.filter((host) => !sandboxHostSchema.safeParse(host).success);
  if (badHosts.length > 0)
    throw new UsageError(
      `--sandbox-allow takes a host, *.domain or host:port, not ${badHosts.map((h) => `"${h}"`).join(', ')}.`,
    );
  const given = flags.rules === undefined ? null : flagRules(flags.rules);
  if (mode !== 'sandbox') {
    if (flags.hosts.length > 0)
      throw new UsageError('--sandbox-allow applies to the sandbox: add --permission-mode sandbox.');
    if (given) throw new UsageError('--sandbox-rules applies to the sandbox: add --permission-mode sandbox.');
  }
  const file = path.join(home, SETTINGS_FILE);
  const read = await readSettingsFile(file);
  // As in the panel: a file that is not one JSON object starts no session (its message says what to do).
  if (read.state === 'unreadable') throw new UsageError(read.error);
  const fields = readSettingsFields(read.state === 'read' ? read.json : {});
  const notices = fields.ignored.filter((value) => value.key === 'sandbox').map((value) => value.message);
  const fromSettings = fields.settings.sandbox;
  const rules: SandboxRules = { ...fromSettings, ...given };
  rules.network = [...new Set([...rules.network, ...flags.hosts])];
  const parts = [
    read.state === 'read' && read.json['sandbox'] !== undefined && notices.length === 0
      ? `the sandbox rules of ${file}`
      : 'the default rules',
    ...(given ? [`--sandbox-rules (${Object.keys(given).join(', ')})`] : []),
    ...(flags.hosts.length > 0 ? ['--sandbox-allow'] : []),
  ];
  return { rules, source: parts.join(', then '), notices };
}

function flagRules(text: string): Partial<SandboxRules> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `--sandbox-rules takes a JSON object such as '{"network": ["registry.npmjs.org"], "writable": ["~/.cargo"]}', and this is not JSON: ${(error as Error).message}`,
    );
  }
  const checked = flagRulesSchema.safeParse(json);
  if (!checked.success)
    throw new UsageError(
      `--sandbox-rules: ${z.prettifyError(checked.error)}\n(the fields are writable, hidden, network, tmp_mib and max_processes)`,
    );
  return Object.fromEntries(Object.entries(checked.data).filter(([, value]) => value !== undefined));
}
