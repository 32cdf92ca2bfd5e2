import { PROVIDERS } from '../../../protocol/providers.ts';

// The environment a command the model runs gets: the app's own, less the secrets the app holds for
// itself. The model layer's provider keys are always dropped unless the person allows them; the
// person can name more variables to drop (`exec_env_deny`) and variables to keep whatever the deny
// list says (`exec_env_allow`). Names are matched exactly, or with `*` standing for any run of
// characters (`AWS_*`, `*_TOKEN`), with case as the platform's environment has it: exact on Linux and
// macOS, without regard to case on Windows, where `Openai_Api_Key` is the same variable.

/** The variables the model layer reads API keys from (protocol/providers.ts). */
export const PROVIDER_KEY_VARIABLES: readonly string[] = PROVIDERS.flatMap((provider) =>
  provider.keyVariable === null ? [] : [provider.keyVariable],
);

export interface CommandEnvPolicy {
  /** Further names or `*` patterns to drop. */
  deny: readonly string[];
  /** Names or patterns kept even when a deny rule (or a provider key) matches them. */
  allow: readonly string[];
}

export const DEFAULT_COMMAND_ENV_POLICY: CommandEnvPolicy = { deny: [], allow: [] };

/** `env` without the denied variables; the caller's object is not changed. */
export function commandEnvironment(
  env: NodeJS.ProcessEnv,
  policy: CommandEnvPolicy,
  platform: NodeJS.Platform = process.platform,
): NodeJS.ProcessEnv {
  const flags = platform === 'win32' ? 'i' : '';
  const denied = [...PROVIDER_KEY_VARIABLES, ...policy.deny].map((rule) => namePattern(rule, flags));
  const allowed = policy.allow.map((rule) => namePattern(rule, flags));
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    const drop = denied.some((pattern) => pattern.test(name)) && !allowed.some((pattern) => pattern.test(name));
    if (!drop) kept[name] = value;
  }
  return kept;
}

/** What the setting accepts: a variable name, `*` anywhere in it standing for any characters. */
export const ENV_NAME_PATTERN = /^[A-Za-z0-9_.*-]+$/;

function namePattern(rule: string, flags: string): RegExp {
  const literal = rule
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\-]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${literal}$`, flags);
}
