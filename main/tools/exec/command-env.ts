// The environment a command the model runs gets: the app's own, less the secrets the app holds for
// itself. The model layer's provider keys are always dropped unless the person allows them; the
// person can name more variables to drop (`exec_env_deny`) and variables to keep whatever the deny
// list says (`exec_env_allow`). Names are matched exactly, or with `*` standing for any run of
// characters (`AWS_*`, `*_TOKEN`), case-sensitively as the environment itself is on Linux and macOS.

/** The variables the model layer reads API keys from (main/model/providers.ts, main/host/key-store.ts). */
export const PROVIDER_KEY_VARIABLES: readonly string[] = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'];

export interface CommandEnvPolicy {
  /** Further names or `*` patterns to drop. */
  deny: readonly string[];
  /** Names or patterns kept even when a deny rule (or a provider key) matches them. */
  allow: readonly string[];
}

export const DEFAULT_COMMAND_ENV_POLICY: CommandEnvPolicy = { deny: [], allow: [] };

/** `env` without the denied variables; the caller's object is not changed. */
export function commandEnvironment(env: NodeJS.ProcessEnv, policy: CommandEnvPolicy): NodeJS.ProcessEnv {
  const denied = [...PROVIDER_KEY_VARIABLES, ...policy.deny].map(namePattern);
  const allowed = policy.allow.map(namePattern);
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    const drop = denied.some((pattern) => pattern.test(name)) && !allowed.some((pattern) => pattern.test(name));
    if (!drop) kept[name] = value;
  }
  return kept;
}

/** What the setting accepts: a variable name, `*` anywhere in it standing for any characters. */
export const ENV_NAME_PATTERN = /^[A-Za-z0-9_.*-]+$/;

function namePattern(rule: string): RegExp {
  const literal = rule
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\-]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${literal}$`);
}
