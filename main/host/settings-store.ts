import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Settings } from '../../protocol/api.ts';
import { editorCommandSchema, openFilesInSchema } from '../../protocol/files.ts';
import { modelOverridesSchema } from '../../protocol/models.ts';
import { permissionModeSchema, reasoningEffortSchema, sendKeySchema, themeSchema } from '../../protocol/values.ts';
import { keepValidRules, ruleListsSchema } from '../tools/permission-rules.ts';
import { ENV_NAME_PATTERN } from '../tools/exec/command-env.ts';
import { DEFAULT_MAX_EDIT_BYTES, MAX_EDIT_FILE_MIB, MIB } from '../tools/files/file-versions.ts';
import {
  checkpointMaxFileMibSchema,
  checkpointStorageMibSchema,
  DEFAULT_CHECKPOINT_MAX_FILE_MIB,
  DEFAULT_CHECKPOINT_STORAGE_MIB,
} from './checkpoint-setting.ts';

// The panel's settings, kept as JSON in one folder (Electron's user-data folder, ~/.aethercodex
// otherwise). Keys are never here: the key store keeps them, and `keys` and `missing_key` are derived
// on read.

export type StoredSettings = Omit<Settings, 'keys' | 'missing_key'>;

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

// Each field is read on its own so one bad value (a hand edit, an older version) falls back to
// its default instead of throwing the whole file away.
const fileSchema = z.object({
  model: z.string().min(1).max(512).catch(DEFAULT_SETTINGS.model),
  effort: reasoningEffortSchema.catch(DEFAULT_SETTINGS.effort),
  permission_mode: permissionModeSchema.catch(DEFAULT_SETTINGS.permission_mode),
  permission_rules: ruleListsSchema.transform(keepValidRules).catch({ allow: [], ask: [], deny: [] }),
  theme: themeSchema.catch(DEFAULT_SETTINGS.theme),
  send_key: sendKeySchema.catch(DEFAULT_SETTINGS.send_key),
  updates_enabled: z.boolean().catch(DEFAULT_SETTINGS.updates_enabled),
  update_feed: z.string().max(2048).optional().catch(undefined),
  exec_env_deny: envNames(),
  exec_env_allow: envNames(),
  model_request_timeout_s: z.number().positive().max(86_400).optional().catch(undefined),
  max_edit_file_mib: maxEditFileMibSchema.catch(DEFAULT_MAX_EDIT_BYTES / MIB),
  model_overrides: modelOverridesSchema.optional().catch(() => {
    console.error(
      'settings.json: model_overrides must map model ids to { context_window, max_output, prices: { input, output, cache_read, cache_write } }; ignoring it.',
    );
    return undefined;
  }),
  compact_at_percent: compactAtPercentSchema.catch(DEFAULT_COMPACT_AT_PERCENT),
  checkpoints_enabled: z.boolean().catch(true),
  checkpoint_storage_mib: checkpointStorageMibSchema.catch(DEFAULT_CHECKPOINT_STORAGE_MIB),
  checkpoint_max_file_mib: checkpointMaxFileMibSchema.catch(DEFAULT_CHECKPOINT_MAX_FILE_MIB),
  open_files_in: openFilesInSchema.optional().catch(undefined),
  editor_command: editorCommandSchema.optional().catch(undefined),
});

/**
 * A list of environment variable names or `*` patterns. An entry that is not one is skipped with a
 * message, the others still apply: a typo must not switch the whole deny list off.
 */
function envNames() {
  return z
    .array(z.unknown())
    .optional()
    .catch(() => {
      console.error('settings.json: exec_env_deny and exec_env_allow must be lists of variable names; ignoring one.');
      return undefined;
    })
    .transform((entries) => {
      if (entries === undefined) return undefined;
      const names = entries.filter(
        (entry): entry is string => typeof entry === 'string' && ENV_NAME_PATTERN.test(entry),
      );
      if (names.length < entries.length)
        console.error(`settings.json: skipping ${entries.length - names.length} entries that are not variable names.`);
      return names;
    });
}

export const SETTINGS_FILE = 'settings.json';

export class SettingsStore {
  readonly file: string;
  private current: StoredSettings | undefined;
  private loading: Promise<StoredSettings> | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Values for this run only (`aether serve --model`): shown, never written, dropped once changed. */
  private readonly overrides: Partial<StoredSettings>;

  constructor(folder: string, options: { overrides?: Partial<StoredSettings> } = {}) {
    this.file = path.join(folder, SETTINGS_FILE);
    this.overrides = { ...options.overrides };
  }

  async get(): Promise<StoredSettings> {
    return { ...(await this.loaded()), ...this.overrides };
  }

  async update(patch: Partial<StoredSettings>): Promise<StoredSettings> {
    const next: StoredSettings = { ...(await this.loaded()), ...patch };
    this.current = next;
    for (const key of Object.keys(patch) as (keyof StoredSettings)[]) delete this.overrides[key];
    // Writes are serialised so the file always ends with the newest settings; a failed write is
    // this update's error only, the next one writes again.
    const saved = this.writing.then(() => this.save(next));
    this.writing = saved.catch(() => undefined);
    await saved;
    return this.get();
  }

  /** The settings of this run: the file is read once, by whichever call comes first. */
  private async loaded(): Promise<StoredSettings> {
    if (this.current) return this.current;
    this.loading ??= this.load().finally(() => (this.loading = undefined));
    const read = await this.loading;
    // An update that landed while the file was being read is newer than the file.
    this.current ??= read;
    return this.current;
  }

  private async load(): Promise<StoredSettings> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...DEFAULT_SETTINGS };
      throw new Error(`Cannot read the settings file ${this.file}: ${(error as Error).message}`, { cause: error });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      console.error(
        `The settings file ${this.file} is not valid JSON; using the defaults until settings are saved again.`,
      );
      return { ...DEFAULT_SETTINGS };
    }
    const parsed = fileSchema.safeParse(typeof json === 'object' && json !== null ? json : {});
    if (!parsed.success) return { ...DEFAULT_SETTINGS };
    const {
      update_feed,
      exec_env_deny,
      exec_env_allow,
      model_request_timeout_s,
      open_files_in,
      editor_command,
      ...rest
    } = parsed.data;
    return {
      ...rest,
      ...(update_feed === undefined ? {} : { update_feed }),
      ...(exec_env_deny === undefined ? {} : { exec_env_deny }),
      ...(exec_env_allow === undefined ? {} : { exec_env_allow }),
      ...(model_request_timeout_s === undefined ? {} : { model_request_timeout_s }),
      ...(open_files_in === undefined ? {} : { open_files_in }),
      ...(editor_command === undefined ? {} : { editor_command }),
    };
  }

  private async save(settings: StoredSettings): Promise<void> {
    const temp = `${this.file}.${randomUUID()}.tmp`;
    try {
      await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      await writeFile(temp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw new Error(`Cannot save the settings to ${this.file}: ${(error as Error).message}`, { cause: error });
    }
  }
}
