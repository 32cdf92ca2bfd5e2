import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readSettingsFile, type SettingsFileRead } from './settings-file.ts';
import { DEFAULT_SETTINGS, readSettingsFields, type IgnoredValue, type StoredSettings } from './settings-fields.ts';

export { DEFAULT_SETTINGS, type StoredSettings } from './settings-fields.ts';

// The panel's settings, kept as JSON in one folder (Electron's user-data folder, ~/.aethercodex
// otherwise). Keys are never here: the key store keeps them, and `keys` and `missing_key` are derived
// on read. A file that cannot be used is never written over, and what the app does not use of a
// file it can (a bad value, a key of a newer version) stays in it as written.

export const SETTINGS_FILE = 'settings.json';

/** settings.json cannot be used: the message names the file, where it goes wrong and what to do. */
export class SettingsFileError extends Error {
  override name = 'SettingsFileError';
}

/** What the panel shows of the settings. */
export interface SettingsStatus {
  /** The settings in force; the defaults while no file could be used. */
  settings: StoredSettings;
  /** Why the file cannot be used, as it was last read; null when it can. */
  unreadable: string | null;
  /** Values of the file that are not used, each a sentence saying why. */
  ignored: string[];
}

export class SettingsStore {
  readonly file: string;
  /** The settings of the last file that could be used, or of the last save. */
  private current: StoredSettings | undefined;
  private ignored: IgnoredValue[] = [];
  private unreadable: string | null = null;
  /** Counts saves, so that a read begun before one does not replace what it saved. */
  private saves = 0;
  private loading: Promise<void> | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Values for this run only (`aether serve --model`): shown, never written, dropped once changed. */
  private readonly overrides: Partial<StoredSettings>;

  constructor(folder: string, options: { overrides?: Partial<StoredSettings> } = {}) {
    this.file = path.join(folder, SETTINGS_FILE);
    this.overrides = { ...options.overrides };
  }

  /**
   * The settings in force. The file is read at first use; while no file could be used it is read
   * again at each call, and the call throws SettingsFileError. Settings read well stay in force
   * for the open session when the file breaks later.
   */
  async get(): Promise<StoredSettings> {
    if (!this.current) await this.load();
    if (!this.current) throw new SettingsFileError(this.unreadable ?? `The settings file ${this.file} was not read.`);
    return { ...this.current, ...this.overrides };
  }

  /** The settings, provided the file can be used now (what a new session starts from); else SettingsFileError. */
  async readable(): Promise<StoredSettings> {
    if (this.unreadable !== null) await this.load();
    if (this.unreadable !== null) throw new SettingsFileError(this.unreadable);
    return this.get();
  }

  /** The settings in force and what is wrong with the file; a file that could not be used is read again. */
  async status(): Promise<SettingsStatus> {
    if (!this.current || this.unreadable !== null) await this.load();
    return {
      settings: { ...(this.current ?? DEFAULT_SETTINGS), ...this.overrides },
      unreadable: this.unreadable,
      ignored: this.ignored.map((value) => value.message),
    };
  }

  /**
   * Saves a change. The file is read again first: a hand edit made since is kept, and a file that
   * cannot be used is left as it is and the change refused (SettingsFileError).
   */
  async update(patch: Partial<StoredSettings>): Promise<StoredSettings> {
    // Writes are serialised so the file always ends with the newest settings; a failed write is
    // this update's error only, the next one writes again.
    const saved = this.writing.then(() => this.save(patch));
    this.writing = saved.catch(() => undefined);
    await saved;
    for (const key of Object.keys(patch) as (keyof StoredSettings)[]) delete this.overrides[key];
    return this.get();
  }

  private load(): Promise<void> {
    const saves = this.saves;
    this.loading ??= readSettingsFile(this.file)
      .then((read) => {
        // A save that landed while the file was being read is newer than what was read.
        if (this.saves === saves) this.adopt(read);
      })
      .finally(() => (this.loading = undefined));
    return this.loading;
  }

  private adopt(read: SettingsFileRead): void {
    if (read.state === 'unreadable') {
      this.unreadable = read.error;
      return;
    }
    const fields = readSettingsFields(read.state === 'read' ? read.json : {});
    this.current = fields.settings;
    this.ignored = fields.ignored;
    this.unreadable = null;
  }

  private async save(patch: Partial<StoredSettings>): Promise<void> {
    const read = await readSettingsFile(this.file);
    if (read.state === 'unreadable') {
      this.unreadable = read.error;
      throw new SettingsFileError(`Settings not saved: ${read.error}`);
    }
    const json = read.state === 'read' ? read.json : {};
    const fields = readSettingsFields(json);
    const next: StoredSettings = { ...fields.settings, ...patch };
    // What this version does not use stays as the person wrote it, unless this change replaces it.
    const ignored = fields.ignored.filter((value) => !Object.hasOwn(patch, value.key));
    const kept = Object.fromEntries(ignored.map((value) => [value.key, json[value.key]]));
    await this.write({ ...next, ...kept });
    this.saves += 1;
    this.current = next;
    this.ignored = ignored;
    this.unreadable = null;
  }

  private async write(content: Record<string, unknown>): Promise<void> {
    const temp = `${this.file}.${randomUUID()}.tmp`;
    try {
      await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      await writeFile(temp, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw new Error(`Cannot save the settings to ${this.file}: ${(error as Error).message}`, { cause: error });
    }
  }
}
