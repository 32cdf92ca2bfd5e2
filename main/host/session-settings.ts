import type { Result } from '../../protocol/api.ts';
import type { AgentSession } from '../agent/agent-session.ts';
import type { AgentOptions } from '../agent/agents/agent-options.ts';
import { applyPermissions as applySessionPermissions, type SessionPermissions } from '../agent/session-permissions.ts';
import { maxEditBytes, processLimits } from '../agent/tool-limits.ts';
import { serverModelOf } from '../model/index.ts';
import type { ModelDirectory } from '../model/model-directory.ts';
import type { ModelAdapter } from '../model/types.ts';
import type { CommandEnvPolicy } from '../tools/exec/command-env.ts';
import type { ProcessLimits } from '../tools/processes/process-table.ts';
import { ok } from './panel-results.ts';
import type { SettingsStore, StoredSettings } from './settings-store.ts';

// How the stored settings reach a session: given to openAgentSession when it starts or resumes,
// and applied again after each change, so a session never runs on settings the person has
// already replaced.

/** The mode and the rule lists, as the settings say now. */
export function permissionsOf(settings: StoredSettings): SessionPermissions {
  return {
    mode: settings.permission_mode,
    ...(settings.permission_rules ? { rules: settings.permission_rules } : {}),
    sandbox: settings.sandbox,
  };
}

/** The mode's rule per kind, the rule lists and the protected-path bypass, as the settings say now. */
export function applyPermissions(session: AgentSession, settings: StoredSettings): void {
  applySessionPermissions(session.gate, permissionsOf(settings));
}

/** The largest file write_file and patch_file read whole, in bytes, read at each call (settings.json may change meanwhile). */
export function editLimitOf(settings: SettingsStore): () => Promise<number> {
  return async () => maxEditBytes((await settings.get()).max_edit_file_mib);
}

/** How many background processes may run and how much of their output is kept, read at each start. */
export function processLimitsOf(settings: SettingsStore): () => Promise<ProcessLimits> {
  return async () => processLimits(await settings.get());
}

/** The command environment the settings allow, read at each call (settings.json may change meanwhile). */
export function commandEnvOf(settings: SettingsStore): () => Promise<CommandEnvPolicy> {
  return async () => {
    const stored = await settings.get();
    return { deny: stored.exec_env_deny ?? [], allow: stored.exec_env_allow ?? [] };
  };
}

/**
 * A `compat:` model is switched to only when its server answers and offers it (its window is
 * kept for the meter); the error says why, and the model selected before stays.
 */
export async function checkServerModel(models: ModelDirectory, id: string): Promise<Result<void>> {
  const listed = await models.learn(id, { timeoutMs: 5_000 });
  if (listed === null) return ok(undefined);
  if (!listed.ok) return listed;
  const name = serverModelOf(id)?.model ?? id;
  if (listed.models.length === 0 || listed.models.some((model) => model.id === name)) return ok(undefined);
  const names = listed.models.map((model) => model.id);
  const shown = names.slice(0, 8).join(', ') + (names.length > 8 ? `, and ${names.length - 8} more` : '');
  return { ok: false, error: `The model server offers no model named "${name}"; it offers ${shown}.` };
}

/** What a session's agents are given: the app home (their files, their approvals) and the settings' limits. */
export function agentOptionsOf(
  settings: StoredSettings,
  home: string | undefined,
  modelFor: (id: string) => Promise<ModelAdapter>,
): AgentOptions {
  const budget = {
    ...(settings.agent_budget_tokens !== undefined ? { tokens: settings.agent_budget_tokens } : {}),
    ...(settings.agent_budget_usd !== undefined ? { cost: settings.agent_budget_usd } : {}),
  };
  return {
    ...(home ? { home } : {}),
    parallel: settings.agents_parallel,
    ...(settings.agent_explore_model ? { exploreModel: settings.agent_explore_model } : {}),
    ...(Object.keys(budget).length > 0 ? { budget } : {}),
    modelFor,
  };
}
