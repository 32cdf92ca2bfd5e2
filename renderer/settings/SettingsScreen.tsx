import { useEffect, useRef } from 'react';
import { settingOf } from '../../protocol/settings.ts';
import { SandboxSettings } from './SandboxSettings.tsx';
import { focusFell } from '../focus.ts';
import { usePanel } from '../store/store.ts';
import { ApiKeys } from './ApiKeys.tsx';
import { CheckpointFields } from './CheckpointFields.tsx';
import { CompactionField } from './CompactionField.tsx';
import { EditLimitField } from './EditLimitField.tsx';
import { HooksSection } from './HooksSection.tsx';
import { SkillsSection } from './SkillsSection.tsx';
import { McpServersSection } from './McpServers.tsx';
import { OpenFilesField } from './OpenFilesField.tsx';
import { PermissionRules } from './PermissionRules.tsx';
import { SessionGrants } from './SessionGrants.tsx';
import { SelectSetting } from './SettingFields.tsx';

// Settings: API keys (ApiKeys.tsx), then the preferences, each labelled and bounded by its entry in
// protocol/settings.ts.

export function SettingsScreen() {
  const settings = usePanel((state) => state.settings);
  const close = usePanel((state) => state.setView);
  const title = useRef<HTMLHeadingElement>(null);
  const loaded = settings !== null;
  // Opened from a button that went away with the welcome offer: focus starts at the screen's title.
  useEffect(() => {
    if (loaded && focusFell()) title.current?.focus();
  }, [loaded]);
  if (!settings) return <p className="card-note">Loading settings…</p>;
  return (
    <section className="settings" data-testid="settings" aria-labelledby="settings-title">
      <div className="settings-head">
        <h2 id="settings-title" ref={title} tabIndex={-1}>
          Settings
        </h2>
        <button type="button" className="button" data-testid="settings-close" onClick={() => close('transcript')}>
          Done
        </button>
      </div>
      <ApiKeys keys={settings.keys} />
      <h3>Preferences</h3>
      <div className="settings-grid">
        <SelectSetting name="theme" slug="theme" value={settings.theme} />
        <SelectSetting name="permission_mode" slug="permission" value={settings.permission_mode} />
        {settings.permission_mode === 'bypass' ? (
          <p className="mode-danger settings-wide" role="alert" data-testid="bypass-warning">
            Bypass lets the model write .git/ (hooks, config), .aethercodex/ and editor task, launch and settings files
            without asking: a write there can run commands the next time you use git or your editor.
          </p>
        ) : null}
        {settings.permission_mode === 'sandbox' ? <SandboxSettings rules={settingOf(settings, 'sandbox')} /> : null}
        <SelectSetting name="effort" slug="effort" value={settings.effort} />
        <SelectSetting name="send_key" slug="send-key" value={settings.send_key} />
        <EditLimitField mib={settingOf(settings, 'max_edit_file_mib')} />
        <CompactionField percent={settingOf(settings, 'compact_at_percent')} />
        <SelectSetting name="prompt_cache_ttl" slug="prompt-cache" value={settingOf(settings, 'prompt_cache_ttl')} />
        <CheckpointFields
          enabled={settingOf(settings, 'checkpoints_enabled')}
          mib={settingOf(settings, 'checkpoint_storage_mib')}
          fileMib={settingOf(settings, 'checkpoint_max_file_mib')}
        />
        <OpenFilesField openIn={settings.open_files_in ?? 'viewer'} command={settings.editor_command ?? ''} />
      </div>
      <PermissionRules />
      <SessionGrants />
      <McpServersSection />
      <HooksSection />
      <SkillsSection />
    </section>
  );
}
