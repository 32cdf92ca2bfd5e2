import type { PermissionMode, ProviderId, Result, Settings, SettingsPatch } from '../../protocol/api.ts';
import type { ServerModelChoice } from '../../protocol/models.ts';
import { CYCLED_PERMISSION_MODES, REASONING_EFFORTS } from '../../protocol/values.ts';
import type { ActionKit } from './action-kit.ts';

// The settings the person changes from the panel: the model and its key, effort, the permission
// mode and the session's granted rules, and anything else settings.json holds.

export interface SettingsActions {
  /** The rules "Always for this session" allowed in the open session; null when the request failed. */
  sessionGrants(): Promise<string[] | null>;
  /** Takes one back; the rules left, or null when it failed. */
  revokeGrant(rule: string): Promise<string[] | null>;
  updateSettings(patch: SettingsPatch): Promise<void>;
  /** Fetches the settings again (settings.json fixed by hand, say); a failure goes to the banner. */
  reloadSettings(): Promise<void>;
  /** Selects the model for the next turns; a refusal (no key, server down) is returned, the old model stays. */
  switchModel(model: string): Promise<Result<Settings>>;
  setKey(provider: ProviderId, key: string | null): Promise<Result<Settings>>;
  cycleEffort(): Promise<void>;
  /** The composer's mode button: ask → plan → auto → ask (another mode goes to ask). */
  cyclePermissionMode(): Promise<void>;
  /** The models an OpenAI-compatible server offers; the error says why there are none. */
  serverModels(baseURL: string): Promise<Result<ServerModelChoice[]>>;
}

export function createSettingsActions({ api, state, report, reportedValue }: ActionKit): SettingsActions {
  const reloadSettings = async (): Promise<void> => {
    const settings = await api.getSettings();
    if (report(settings) && settings.ok) state().setSettings(settings.value);
  };

  const updateSettings = async (patch: SettingsPatch): Promise<void> => {
    const updated = await api.updateSettings(patch);
    if (updated.ok) {
      state().setSettings(updated.value);
      return;
    }
    // A change refused because settings.json cannot be used: its own banner says so, and stays.
    const settings = await api.getSettings();
    if (settings.ok) state().setSettings(settings.value);
    if (!settings.ok || settings.value.file_problems?.unreadable === undefined) state().showError(updated.error);
  };

  return {
    sessionGrants: async () => reportedValue(await api.sessionGrants()),
    revokeGrant: async (rule) => reportedValue(await api.revokeGrant(rule)),
    updateSettings,
    reloadSettings,
    switchModel: async (model) => {
      const updated = await api.updateSettings({ model });
      if (updated.ok) state().setSettings(updated.value);
      return updated;
    },
    setKey: async (provider, key) => {
      const updated = await api.setKey(provider, key);
      if (updated.ok) state().setSettings(updated.value);
      return updated;
    },
    cycleEffort: async () => {
      const current = state().settings?.effort ?? 'medium';
      const next = REASONING_EFFORTS[(REASONING_EFFORTS.indexOf(current) + 1) % REASONING_EFFORTS.length] ?? 'medium';
      await updateSettings({ effort: next });
    },
    cyclePermissionMode: async () => {
      const modes: readonly PermissionMode[] = CYCLED_PERMISSION_MODES;
      const current = state().settings?.permission_mode ?? 'ask';
      const next = modes[(modes.indexOf(current) + 1) % modes.length] ?? 'ask';
      await updateSettings({ permission_mode: next });
    },
    serverModels: (baseURL) => api.serverModels(baseURL),
  };
}
