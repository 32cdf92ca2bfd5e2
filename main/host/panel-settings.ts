import type { Result, Settings } from '../../protocol/api.ts';
import { keyPresence, type KeyStore } from './key-store.ts';
import type { ModelCatalog } from './panel-service-options.ts';
import { attempt } from './panel-results.ts';
import type { SettingsStore, StoredSettings } from './settings-store.ts';

// The settings as the panel service hands them out: to the panel with which keys exist and what is
// wrong with settings.json, and to a session about to start only from a file that can be used.

export async function panelSettings(store: SettingsStore, keys: KeyStore, models: ModelCatalog): Promise<Settings> {
  const { settings, unreadable, ignored } = await store.status();
  const [present, missing] = await Promise.all([keyPresence(keys), models.missingKey(settings.model, keys)]);
  const problems =
    unreadable === null && ignored.length === 0
      ? {}
      : { file_problems: { path: store.file, ignored, ...(unreadable === null ? {} : { unreadable }) } };
  return { ...settings, keys: present, missing_key: missing, ...problems };
}

/** The settings a new or reopened session starts from; refused, saying why, while settings.json cannot be used. */
export async function startingSettings(store: SettingsStore, what: string): Promise<Result<StoredSettings>> {
  const read = await attempt(() => store.readable());
  return read.ok ? read : { ok: false, error: `Cannot ${what}: ${read.error}` };
}
