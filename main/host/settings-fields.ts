import type { PermissionRuleLists } from '../../protocol/api.ts';
import { isRecord } from '../../protocol/json.ts';
import {
  permissionRuleListsSchema,
  SETTING_KEYS,
  settingDefault,
  SETTINGS_SHAPE,
  type SettingKey,
  type StoredSettings,
} from '../../protocol/settings.ts';
import { parseRule, type RuleEffect } from '../agent/session-permissions.ts';
import { ENV_NAME_PATTERN } from '../agent/tool-limits.ts';

// The fields of settings.json, each read on its own with its schema (protocol/settings.ts): one
// bad value (a hand edit, an older version) falls back to its default instead of throwing the
// whole file away, and says so, so that a deny rule or a denied variable that does not apply is
// never a silent loss.

export { DEFAULT_SETTINGS, type StoredSettings } from '../../protocol/settings.ts';

/** A value of settings.json that is not used, under its top-level key, and a sentence saying why. */
export interface IgnoredValue {
  key: string;
  message: string;
}

export interface SettingsFields {
  settings: StoredSettings;
  ignored: IgnoredValue[];
}

type Ignore = (key: string, message: string) => void;

/**
 * Lists read entry by entry, so that one entry that means nothing does not take the others with
 * it; every other setting is read whole, with its schema.
 */
const LIST_READERS: { [K in SettingKey]?: (value: unknown, ignore: Ignore) => StoredSettings[K] } = {
  permission_rules: (value, ignore) => permissionRules(value, ignore),
  exec_env_deny: (value, ignore) => envNames('exec_env_deny', value, ignore),
  exec_env_allow: (value, ignore) => envNames('exec_env_allow', value, ignore),
};

/** The settings a JSON object holds, and what in it was not used. */
export function readSettingsFields(json: Record<string, unknown>): SettingsFields {
  const ignored: IgnoredValue[] = [];
  const ignore: Ignore = (key, message) => ignored.push({ key, message });
  const settings: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const reader = LIST_READERS[key] as ((value: unknown, ignore: Ignore) => unknown) | undefined;
    const value = reader ? reader(json[key], ignore) : readField(key, json[key], ignore);
    if (value !== undefined) settings[key] = value;
  }
  for (const key of Object.keys(json))
    if (!Object.hasOwn(SETTINGS_SHAPE, key))
      ignore(key, `${key} is not a setting this version knows: it stays in the file, unused.`);
  return { settings: settings as StoredSettings, ignored };
}

/** A value as its schema reads it; one it does not is named, and the default applies. */
function readField(key: SettingKey, value: unknown, ignore: Ignore): unknown {
  const fallback = settingDefault(key);
  if (value === undefined) return fallback;
  const parsed = SETTINGS_SHAPE[key].safeParse(value);
  if (parsed.success) return parsed.data;
  const instead = fallback === undefined ? 'it stays unset' : `the default ${JSON.stringify(fallback)} applies`;
  const issue = parsed.error.issues[0];
  const why = issue ? `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}` : 'not valid';
  ignore(key, `${key}: ${shown(value)} is not used (${why}); ${instead}.`);
  return fallback;
}

const RULE_EFFECTS: readonly RuleEffect[] = ['allow', 'ask', 'deny'];

/** Rules that cannot mean anything are left out, each named, and the others apply. */
function permissionRules(value: unknown, ignore: Ignore): PermissionRuleLists {
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
    const parsed = permissionRuleListsSchema.shape[effect].safeParse(value[effect]);
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
function envNames(key: 'exec_env_deny' | 'exec_env_allow', value: unknown, ignore: Ignore): string[] | undefined {
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
