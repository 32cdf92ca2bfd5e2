import { z } from 'zod';
import type { PermissionRuleLists, Settings } from '../../protocol/api.ts';
import { editorCommandSchema, openFilesInSchema } from '../../protocol/files.ts';
import { isRecord } from '../../protocol/json.ts';
import { modelOverridesSchema } from '../../protocol/models.ts';
import { permissionModeSchema, reasoningEffortSchema, sendKeySchema, themeSchema } from '../../protocol/values.ts';
import { parseRule, type RuleEffect } from '../agent/session-permissions.ts';
import { DEFAULT_MAX_EDIT_BYTES, ENV_NAME_PATTERN, MAX_EDIT_FILE_MIB, MIB } from '../agent/tool-limits.ts';
import {
  checkpointMaxFileMibSchema,
  checkpointStorageMibSchema,
  DEFAULT_CHECKPOINT_MAX_FILE_MIB,
  DEFAULT_CHECKPOINT_STORAGE_MIB,
} from './checkpoint-setting.ts';

// The fields of settings.json, each read on its own: one bad value (a hand edit, an older version)
// falls back to its default instead of throwing the whole file away, and says so, so that a deny
// rule or a denied variable that does not apply is never a silent loss.

export type StoredSettings = Omit<Settings, 'keys' | 'missing_key' | 'file_problems'>;

export const DEFAULT_COMPACT_AT_PERCENT = 85;

export const DEFAULT_SETTINGS: StoredSettings = {
  model: 'demo',
  effort: 'medium',
  permission_mode: 'ask',
  permission_rules: { allow: [], ask: [], deny: [] },
  theme: 'system',
  send_key: 'enter',
  updates_enabled: false,
  max_edit_file_mib: DEFAULT_MAX_EDIT_BYTES / MIB,
  compact_at_percent: DEFAULT_COMPACT_AT_PERCENT,
  checkpoints_enabled: true,
  checkpoint_storage_mib: DEFAULT_CHECKPOINT_STORAGE_MIB,
  checkpoint_max_file_mib: DEFAULT_CHECKPOINT_MAX_FILE_MIB,
};

/** The compact_at_percent setting: a whole percentage of the window, or null for no automatic compaction. */
export const compactAtPercentSchema = z.number().int().min(10).max(99).nullable();

/** The max_edit_file_mib setting: whole MiB, up to what a file read whole can be (2 GiB). */
export const maxEditFileMibSchema = z.number().int().min(1).max(MAX_EDIT_FILE_MIB);

/** A value of settings.json that is not used, under its top-level key, and a sentence saying why. */
export interface IgnoredValue {
  key: string;
  message: string;
}

export interface SettingsFields {
  settings: StoredSettings;
  ignored: IgnoredValue[];
}

const RULE_EFFECTS: readonly RuleEffect[] = ['allow', 'ask', 'deny'];
const ruleList = z.array(z.string().max(2000)).max(500);

/** The settings a JSON object holds, and what in it was not used. */
export function readSettingsFields(json: Record<string, unknown>): SettingsFields {
  const ignored: IgnoredValue[] = [];
  const known = new Set<string>();
  const ignore = (key: string, message: string) => ignored.push({ key, message });
  const read = <T>(key: keyof StoredSettings, schema: z.ZodType<T>, fallback: T): T => {
    known.add(key);
    const value = json[key];
    if (value === undefined) return fallback;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const instead = fallback === undefined ? 'it stays unset' : `the default ${JSON.stringify(fallback)} applies`;
    const issue = parsed.error.issues[0];
    const why = issue ? `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}` : 'not valid';
    ignore(key, `${key}: ${shown(value)} is not used (${why}); ${instead}.`);
    return fallback;
  };
  // Read by functions of their own, which keep the valid part of a list.
  known.add('permission_rules').add('exec_env_deny').add('exec_env_allow');
  const settings: StoredSettings = {
    model: read('model', z.string().min(1).max(512), DEFAULT_SETTINGS.model),
    effort: read('effort', reasoningEffortSchema, DEFAULT_SETTINGS.effort),
    permission_mode: read('permission_mode', permissionModeSchema, DEFAULT_SETTINGS.permission_mode),
    permission_rules: permissionRules(json['permission_rules'], ignore),
    theme: read('theme', themeSchema, DEFAULT_SETTINGS.theme),
    send_key: read('send_key', sendKeySchema, DEFAULT_SETTINGS.send_key),
    updates_enabled: read('updates_enabled', z.boolean(), DEFAULT_SETTINGS.updates_enabled),
    max_edit_file_mib: read('max_edit_file_mib', maxEditFileMibSchema, DEFAULT_MAX_EDIT_BYTES / MIB),
    compact_at_percent: read('compact_at_percent', compactAtPercentSchema, DEFAULT_COMPACT_AT_PERCENT),
    checkpoints_enabled: read('checkpoints_enabled', z.boolean(), true),
    checkpoint_storage_mib: read('checkpoint_storage_mib', checkpointStorageMibSchema, DEFAULT_CHECKPOINT_STORAGE_MIB),
    checkpoint_max_file_mib: read(
      'checkpoint_max_file_mib',
      checkpointMaxFileMibSchema,
      DEFAULT_CHECKPOINT_MAX_FILE_MIB,
    ),
  };
  const optional: Partial<StoredSettings> = {
    update_feed: read('update_feed', z.string().max(2048).optional(), undefined),
    exec_env_deny: envNames('exec_env_deny', json, ignore),
    exec_env_allow: envNames('exec_env_allow', json, ignore),
    model_request_timeout_s: read('model_request_timeout_s', z.number().positive().max(86_400).optional(), undefined),
    model_overrides: read('model_overrides', modelOverridesSchema.optional(), undefined),
    open_files_in: read('open_files_in', openFilesInSchema.optional(), undefined),
    editor_command: read('editor_command', editorCommandSchema.optional(), undefined),
  };
  for (const [key, value] of Object.entries(optional))
    if (value !== undefined) Object.assign(settings, { [key]: value });
  for (const key of Object.keys(json))
    if (!known.has(key)) ignore(key, `${key} is not a setting this version knows: it stays in the file, unused.`);
  return { settings, ignored };
}

/** Rules that cannot mean anything are left out, each named, and the others apply. */
function permissionRules(value: unknown, ignore: (key: string, message: string) => void): PermissionRuleLists {
  const lists: PermissionRuleLists = { allow: [], ask: [], deny: [] };
  if (value === undefined) return lists;
  const key = 'permission_rules';
  if (!isRecord(value)) {
    ignore(key, `${key} must be an object of lists, {"allow": […], "ask": […], "deny": […]}: none of its rules apply.`);
    return lists;
  }
  for (const name of Object.keys(value))
    if (!(RULE_EFFECTS as readonly string[]).includes(name))
      ignore(key, `${key}.${name} is not a list the app knows (allow, ask, deny): its rules do not apply.`);
  for (const effect of RULE_EFFECTS) {
    if (value[effect] === undefined) continue;
    const parsed = ruleList.safeParse(value[effect]);
    if (!parsed.success) {
      ignore(
        key,
        `${key}.${effect} must be a list of at most 500 rules in quotes, such as ["exec(npm test)"]: none of the ${effect} rules apply.`,
      );
      continue;
    }
    for (const text of parsed.data) {
      try {
        parseRule(text);
        lists[effect].push(text);
      } catch (error) {
        ignore(key, `${key}.${effect}: ${(error as Error).message} This ${effect} rule does not apply.`);
      }
    }
  }
  return lists;
}

/**
 * A list of environment variable names or `*` patterns. An entry that is not one is left out and
 * named, the others still apply: a typo must not switch the whole deny list off.
 */
function envNames(
  key: 'exec_env_deny' | 'exec_env_allow',
  json: Record<string, unknown>,
  ignore: (key: string, message: string) => void,
): string[] | undefined {
  const value = json[key];
  if (value === undefined) return undefined;
  const effect =
    key === 'exec_env_deny'
      ? 'no variable is dropped because of it, so commands see them all'
      : 'no variable is kept because of it';
  if (!Array.isArray(value)) {
    ignore(key, `${key} must be a list of variable names, such as ["AWS_*", "*_TOKEN"]: ${effect}.`);
    return undefined;
  }
  const isName = (entry: unknown): entry is string => typeof entry === 'string' && ENV_NAME_PATTERN.test(entry);
  const rejected = value.filter((entry) => !isName(entry));
  if (rejected.length > 0)
    ignore(
      key,
      `${key}: ${rejected.map(shown).join(', ')} ${rejected.length === 1 ? 'is not a variable name' : 'are not variable names'} (letters, digits, _ . - and *) and ${rejected.length === 1 ? 'does' : 'do'} not apply; the other entries do.`,
    );
  return value.filter(isName);
}

/** A value as the file has it, cut short. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
