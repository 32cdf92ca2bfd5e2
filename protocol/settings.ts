import { z } from 'zod';
import { editorCommandSchema, openFilesInSchema } from './files.ts';
import { modelOverridesSchema } from './models.ts';
import { MODEL_ID_FORMS } from './providers.ts';
import { DEFAULT_SANDBOX_RULES, sandboxRulesSchema } from './sandbox.ts';
import { permissionModeSchema, reasoningEffortSchema, sendKeySchema, themeSchema } from './values.ts';

// settings.json, each setting declared once: its schema (what the file may hold, checked again at
// the panel's edge), its default (none: it stays unset) and its title and description (the
// Settings screen's label and help). From these come the stored type, the defaults, the file
// reader's field-by-field recovery (main/host/settings-fields.ts), the patch the panel may send
// and the Settings screen's plain fields (renderer/settings/SettingFields.tsx). A new setting is
// one entry here, and its use.

export interface SettingInfo {
  /** The Settings screen's label, before its unit. */
  title: string;
  /** What a number counts, after the title in its label: `Largest file to edit (MiB)`. */
  unit?: string;
  /** What it does, in a sentence or two: the field's help. */
  description: string;
  /** An enum's values as the Settings screen names them; absent: the values themselves. */
  options?: Readonly<Record<string, string>>;
}

const settingInfo = z.registry<SettingInfo>();

function setting<S extends z.ZodType>(schema: S, info: SettingInfo): S {
  settingInfo.add(schema as z.ZodType, info);
  return schema;
}

/** The largest file write_file and patch_file read whole, unless the settings say otherwise. */
export const DEFAULT_MAX_EDIT_FILE_MIB = 64;
/** The highest that setting goes: Node reads no file over 2 GiB whole. */
export const MAX_EDIT_FILE_MIB = 2047;
/** What a session's checkpoints may take on disk; less than the minimum could not hold a small workspace's first one. */
export const DEFAULT_CHECKPOINT_STORAGE_MIB = 2048;
const MIN_CHECKPOINT_STORAGE_MIB = 16;
const MAX_CHECKPOINT_STORAGE_MIB = 1024 * 1024;
/** Files over this are recorded by hash only; one under the limit is read whole to be stored, so 1 GiB at most. */
export const DEFAULT_CHECKPOINT_MAX_FILE_MIB = 50;
const MAX_CHECKPOINT_FILE_MIB = 1024;

const ruleList = z.array(z.string().max(2000)).max(500);
export const permissionRuleListsSchema = z.object({ allow: ruleList, ask: ruleList, deny: ruleList });
/** Rules such as `exec(git push *)` or `write(src/**)`: deny wins, then ask, then allow, then the mode. */
export type PermissionRuleLists = z.infer<typeof permissionRuleListsSchema>;

/** Settings the panel changes (`settings:update`). */
const PANEL_SETTINGS = {
  model: setting(z.string().min(1).max(512).default('demo'), {
    title: 'Model',
    description: `The model new turns go to: ${MODEL_ID_FORMS}.`,
  }),
  effort: setting(reasoningEffortSchema.default('medium'), {
    title: 'Reasoning effort',
    description: 'How hard the model thinks before it answers; off sends no reasoning budget.',
  }),
  permission_mode: setting(permissionModeSchema.default('ask'), {
    title: 'Tool permissions',
    description: 'What a tool call may do without asking; rules below decide first.',
    options: {
      ask: 'Ask before writing or running',
      review: 'Review every write hunk by hunk; run commands without asking',
      auto: 'Allow everything',
      'read-only': 'Read only',
      bypass: 'Bypass (dangerous): allow everything, protected paths too',
      sandbox: 'Sandbox: run commands without asking, inside the sandbox; ask before the rest',
      plan: 'Plan: read and search, ask before commands, write nothing; end in a plan to approve',
    },
  }),
  permission_rules: setting(
    permissionRuleListsSchema.default(() => ({ allow: [], ask: [], deny: [] })),
    {
      title: 'Permission rules',
      description:
        'Rules such as exec(git push *) or write(src/**): deny wins, then ask, then allow, then the mode. A rule that means nothing does not apply, and is named.',
    },
  ),
  sandbox: setting(
    sandboxRulesSchema.default(() => ({ ...DEFAULT_SANDBOX_RULES, writable: [...DEFAULT_SANDBOX_RULES.writable] })),
    {
      title: 'Sandbox',
      description:
        'Where commands run in the sandbox mode: what they may write besides the workspace, the hosts they may reach, the size of their /tmp and how many processes they may run.',
    },
  ),
  theme: setting(themeSchema.default('system'), {
    title: 'Theme',
    description: 'Light or dark, or as the system is.',
    options: { system: 'Follow the system', light: 'Light', dark: 'Dark' },
  }),
  send_key: setting(sendKeySchema.default('enter'), {
    title: 'Send a message with',
    description: 'Which key sends a message; the other makes a new line.',
    options: { enter: 'Enter (Shift+Enter for a new line)', 'ctrl-enter': 'Ctrl/Cmd+Enter (Enter for a new line)' },
  }),
  updates_enabled: setting(z.boolean().default(false), {
    title: 'Updates',
    description: 'The desktop app checks its update feed and installs a newer version.',
  }),
  max_edit_file_mib: setting(z.number().int().min(1).max(MAX_EDIT_FILE_MIB).default(DEFAULT_MAX_EDIT_FILE_MIB), {
    title: 'Largest file to edit',
    unit: 'MiB',
    description: 'write_file and patch_file refuse larger files before reading them',
  }),
  prompt_cache_ttl: setting(z.enum(['5m', '1h']).default('5m'), {
    title: 'Prompt cache',
    description:
      'How long Anthropic keeps the cached start of a request: writing it costs 1.25× the input price for 5 minutes, 2× for an hour; reading it back costs 0.1× either way. An hour pays off when you pause longer than 5 minutes between messages.',
    options: { '5m': '5 minutes (writes at 1.25× the input price)', '1h': '1 hour (writes at 2× the input price)' },
  }),
  compact_at_percent: setting(z.number().int().min(10).max(99).nullable().default(85), {
    title: 'Compact the context at',
    unit: '% of the window',
    // null: never by itself (a context larger than the window is still compacted, with a notice).
    description: "Summarise older messages once the next request would pass this share of the model's window",
  }),
  checkpoints_enabled: setting(z.boolean().default(true), {
    title: 'Checkpoints',
    description:
      'A checkpoint of the workspace before every call that may change it. Off: writes and commands run without one, and their cards cannot be rewound.',
  }),
  checkpoint_storage_mib: setting(
    z
      .number()
      .int('The checkpoint storage limit is a whole number of MiB')
      .min(MIN_CHECKPOINT_STORAGE_MIB, `The checkpoint storage limit is at least ${MIN_CHECKPOINT_STORAGE_MIB} MiB`)
      .max(
        MAX_CHECKPOINT_STORAGE_MIB,
        `The checkpoint storage limit is at most ${MAX_CHECKPOINT_STORAGE_MIB} MiB (1 TiB)`,
      )
      .default(DEFAULT_CHECKPOINT_STORAGE_MIB),
    {
      title: 'Checkpoint storage',
      unit: 'MiB',
      description:
        "Past this, a session's oldest checkpoints are removed (the panel says how many), and the cards before them can no longer be rewound.",
    },
  ),
  checkpoint_max_file_mib: setting(
    z
      .number()
      .int('The largest file a checkpoint keeps is a whole number of MiB')
      .min(1, 'The largest file a checkpoint keeps is at least 1 MiB')
      .max(MAX_CHECKPOINT_FILE_MIB, `The largest file a checkpoint keeps is at most ${MAX_CHECKPOINT_FILE_MIB} MiB`)
      .default(DEFAULT_CHECKPOINT_MAX_FILE_MIB),
    {
      title: 'Largest file a checkpoint keeps',
      unit: 'MiB',
      description:
        'A bigger file is recorded by its hash only: a rewind leaves it as it is and names it as not restorable.',
    },
  ),
  open_files_in: setting(openFilesInSchema.optional(), {
    title: 'Open files in',
    description: "Where a file link opens: the panel's read card (the default), or editor_command (desktop app only).",
    options: { viewer: "The panel's file viewer", editor: 'My editor (a command)' },
  }),
  editor_command: setting(editorCommandSchema.optional(), {
    title: 'Editor command',
    description: 'The program that opens {path} at {line}, such as code -g {path}:{line}; run without a shell.',
  }),
};

/** Settings read from settings.json only: the panel never sets them. */
const FILE_SETTINGS = {
  // Where installers come from is set by whoever installs the app (AETHERCODEX_UPDATE_FEED, or the
  // file by hand), never by the page: a page that could name the feed and turn updates on could
  // have the app install whatever that feed serves.
  update_feed: setting(z.string().max(2048).optional(), {
    title: 'Update feed',
    description: 'Where the desktop app looks for a newer version.',
  }),
  exec_env_deny: setting(z.array(z.string()).optional(), {
    title: 'Variables commands do not get',
    description:
      'Environment variables dropped from the commands exec runs, besides the provider API keys: names, * for any characters.',
  }),
  exec_env_allow: setting(z.array(z.string()).optional(), {
    title: 'Variables commands keep',
    description: 'Variables commands keep even when denied, provider keys included.',
  }),
  model_request_timeout_s: setting(z.number().positive().max(86_400).optional(), {
    title: 'Model request deadline',
    unit: 's',
    description:
      'Seconds one model request may take, from sending it to the end of its stream, however steadily the server keeps it alive (600 when unset).',
  }),
  // Read by the session itself, with the workspace's settings files (main/tools/hooks/hook-config.ts).
  hooks: setting(z.record(z.string(), z.unknown()).optional(), {
    title: 'Hooks',
    description:
      'Commands run at moments of a session (PreToolUse, PostToolUse, Stop…), in the shape Claude Code reads: {"PreToolUse": [{"matcher": "exec", "hooks": [{"type": "command", "command": "…"}]}]}.',
  }),
  processes_max: setting(z.number().int().min(1).max(64).default(8), {
    title: 'Background processes per session',
    description:
      'How many commands may keep running at once in one session (exec in the background or a terminal); past it, the model is told to stop one first.',
  }),
  process_output_disk_mib: setting(z.number().int().min(1).max(1024).default(16), {
    title: 'Output kept per background process',
    unit: 'MiB',
    description: "On disk, in the session's folder: past it the oldest output is dropped, never the newest.",
  }),
  process_output_memory_kib: setting(
    z
      .number()
      .int()
      .min(16)
      .max(64 * 1024)
      .default(256),
    {
      title: 'Output held in memory per background process',
      unit: 'KiB',
      description: 'The newest output of each process, read without the disk; the rest is read back from its file.',
    },
  ),
  agents_parallel: setting(z.number().int().min(1).max(16).default(3), {
    title: 'Agents at once',
    description: 'How many agents one session runs side by side; more agent calls in a step wait for a free one.',
  }),
  agent_explore_model: setting(z.string().min(1).max(512).optional(), {
    title: 'Model for explore',
    description: "A cheaper model the built-in explore agent runs on (provider:model); unset: the session's own.",
  }),
  agent_budget_tokens: setting(z.number().int().positive().optional(), {
    title: "An agent's token budget",
    description: 'Input and output tokens one agent may use before it is stopped with what it had said.',
  }),
  agent_budget_usd: setting(z.number().positive().max(10_000).optional(), {
    title: "An agent's cost budget",
    unit: '$',
    description: 'US dollars one agent may cost (over steps whose prices are known) before it is stopped.',
  }),
  model_overrides: setting(modelOverridesSchema.optional(), {
    title: 'Model overrides',
    description: 'Per-model corrections of the catalog, keyed by the full model id: window, output limit, prices.',
  }),
};

export const SETTINGS_SHAPE = { ...PANEL_SETTINGS, ...FILE_SETTINGS };
export const settingsSchema = z.object(SETTINGS_SHAPE);

/** The settings in force: every setting with a default is there. */
export type StoredSettings = z.output<typeof settingsSchema>;
export type SettingKey = keyof StoredSettings;
export type PanelSettingKey = keyof typeof PANEL_SETTINGS;

export const SETTING_KEYS = Object.keys(SETTINGS_SHAPE) as SettingKey[];
export const PANEL_SETTING_KEYS = Object.keys(PANEL_SETTINGS) as PanelSettingKey[];

/** What a person can change in the panel. */
export type SettingsPatch = Partial<Pick<StoredSettings, PanelSettingKey>>;

export function settingInfoOf(key: SettingKey): SettingInfo {
  const info = settingInfo.get(SETTINGS_SHAPE[key]);
  if (!info) throw new Error(`The setting ${key} has no title or description.`);
  return info;
}

/** A setting's label on the Settings screen: its title, and its unit in brackets. */
export function settingLabel(key: SettingKey): string {
  const info = settingInfoOf(key);
  return info.unit === undefined ? info.title : `${info.title} (${info.unit})`;
}

/** A setting's default; undefined when it has none (it stays unset). */
export function settingDefault<K extends SettingKey>(key: K): StoredSettings[K] {
  return SETTINGS_SHAPE[key].parse(undefined) as StoredSettings[K];
}

/** Every setting that has a default, at it. */
export const DEFAULT_SETTINGS = Object.fromEntries(
  SETTING_KEYS.flatMap((key) => {
    const value = settingDefault(key);
    return value === undefined ? [] : [[key, value]];
  }),
) as StoredSettings;

/** The schema under a default, optional or nullable wrapper: what a value given must be. */
function valueSchema(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional || inner instanceof z.ZodNullable)
    inner = inner.unwrap() as z.ZodType;
  return inner;
}

type Unset<S> = S extends z.ZodDefault<infer Inner> ? Inner : S extends z.ZodOptional<infer Inner> ? Inner : S;

/**
 * Each panel setting's schema for a value sent: without its default (a patch leaves out what it
 * does not change) and without `optional` (the patch itself is partial). Main completes it.
 */
export const SETTINGS_PATCH_SHAPE = Object.fromEntries(
  PANEL_SETTING_KEYS.map((key) => {
    const schema: z.ZodType = PANEL_SETTINGS[key];
    return [key, schema instanceof z.ZodDefault || schema instanceof z.ZodOptional ? schema.unwrap() : schema];
  }),
) as { [K in PanelSettingKey]: Unset<(typeof PANEL_SETTINGS)[K]> };

/** A whole-number setting's bounds. */
export function numberBounds(key: SettingKey): { min: number; max: number } {
  const inner = valueSchema(SETTINGS_SHAPE[key]);
  if (!(inner instanceof z.ZodNumber)) throw new Error(`The setting ${key} is not a number.`);
  return { min: inner.minValue ?? Number.MIN_SAFE_INTEGER, max: inner.maxValue ?? Number.MAX_SAFE_INTEGER };
}

/** An enum setting's values, each with its name on the Settings screen. */
export function enumChoices(key: SettingKey): { value: string; label: string }[] {
  const inner = valueSchema(SETTINGS_SHAPE[key]);
  if (!(inner instanceof z.ZodEnum)) throw new Error(`The setting ${key} is not a list of values.`);
  const names = settingInfoOf(key).options ?? {};
  return (inner.options as string[]).map((value) => ({ value, label: names[value] ?? value }));
}

/** The panel's view of the settings: those every host has always sent, and the others read with their defaults. */
type AlwaysSent = 'model' | 'effort' | 'permission_mode' | 'theme' | 'send_key' | 'updates_enabled';
export type SentSettings = Pick<StoredSettings, AlwaysSent> & Partial<Omit<StoredSettings, AlwaysSent>>;

/** A setting as the panel received it, or its default when it was left out. */
export function settingOf<K extends SettingKey>(settings: SentSettings, key: K): StoredSettings[K] {
  const value = (settings as Partial<StoredSettings>)[key];
  return value === undefined ? settingDefault(key) : (value as StoredSettings[K]);
}
