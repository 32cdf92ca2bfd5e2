import type { Result } from '../../protocol/api.ts';
import { TOOL_KINDS } from '../../protocol/values.ts';
import type { AgentSession } from '../agent/agent-session.ts';
import { bypassesProtectedPaths, rulesForMode } from '../agent/permissions.ts';
import { parseModelId } from '../model/index.ts';
import { DEFAULT_MAX_EDIT_BYTES, MIB } from '../tools/files/file-versions.ts';
import { EMPTY_RULES } from '../tools/permission-rules.ts';
import type { ModelDirectory } from './model-directory.ts';
import { ok } from './panel-results.ts';
import type { StoredSettings } from './settings-store.ts';

// How the stored settings reach a live session: applied when it starts or resumes and again after
// each change, so a session never runs on settings the person has already replaced.

/** The mode's rule per kind, the rule lists and the protected-path bypass, as the settings say now. */
export function applyPermissions(session: AgentSession, settings: StoredSettings): void {
  const rules = rulesForMode(settings.permission_mode);
  for (const kind of TOOL_KINDS) session.gate.setRule(kind, rules[kind]);
  session.gate.setRuleLists(settings.permission_rules ?? EMPTY_RULES);
  session.gate.setBypassProtected(bypassesProtectedPaths(settings.permission_mode));
}

/** The largest file write_file and patch_file read whole, as the settings say now. */
export function applyEditLimit(session: AgentSession, settings: StoredSettings): void {
  session.registry.setMaxEditBytes((settings.max_edit_file_mib ?? DEFAULT_MAX_EDIT_BYTES / MIB) * MIB);
}

/**
 * A `compat:` model is switched to only when its server answers and offers it (its window is
 * kept for the meter); the error says why, and the model selected before stays.
 */
export async function checkServerModel(models: ModelDirectory, id: string): Promise<Result<void>> {
  const listed = await models.learn(id, { timeoutMs: 5_000 });
  if (listed === null) return ok(undefined);
  if (!listed.ok) return listed;
  const parsed = parseModelId(id);
  const name = parsed.ok && parsed.spec.family === 'compat' ? parsed.spec.model : id;
  if (listed.models.length === 0 || listed.models.some((model) => model.id === name)) return ok(undefined);
  const names = listed.models.map((model) => model.id);
  const shown = names.slice(0, 8).join(', ') + (names.length > 8 ? `, and ${names.length - 8} more` : '');
  return { ok: false, error: `The model server offers no model named "${name}"; it offers ${shown}.` };
}
