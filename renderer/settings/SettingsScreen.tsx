import { useEffect, useRef, useState } from 'react';
import type { ProviderId } from '../../protocol/api.ts';
import { KEYED_PROVIDERS } from '../../protocol/providers.ts';
import { settingOf } from '../../protocol/settings.ts';
import { useActions } from '../actions.ts';
import { focusFell } from '../focus.ts';
import { usePanel } from '../store/store.ts';
import { CheckpointFields } from './CheckpointFields.tsx';
import { CompactionField } from './CompactionField.tsx';
import { EditLimitField } from './EditLimitField.tsx';
import { McpServersSection } from './McpServers.tsx';
import { OpenFilesField } from './OpenFilesField.tsx';
import { PermissionRules } from './PermissionRules.tsx';
import { SessionGrants } from './SessionGrants.tsx';
import { SelectSetting } from './SettingFields.tsx';

// Settings: API keys, one field per provider that needs one (stored by the main process; the panel
// only learns whether one is stored), then the preferences, each labelled and bounded by its entry
// in protocol/settings.ts.

function KeyRow({ provider, name, stored }: { provider: ProviderId; name: string; stored: boolean }) {
  const actions = useActions();
  const [key, setKey] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const save = async (value: string | null) => {
    const result = await actions.setKey(provider, value);
    if (result.ok) setKey('');
    setMessage(
      result.ok
        ? { ok: true, text: value === null ? 'Key removed.' : 'Key saved.' }
        : { ok: false, text: result.error },
    );
  };
  return (
    <div className="key-row">
      <label htmlFor={`key-${provider}`}>{name} API key</label>
      <span className={`badge ${stored ? 'badge-ok' : ''}`} data-testid={`key-status-${provider}`}>
        {stored ? 'stored' : 'not set'}
      </span>
      <form
        className="key-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim() !== '') void save(key.trim());
        }}
      >
        <input
          id={`key-${provider}`}
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={key}
          placeholder={stored ? 'Replace the stored key' : 'Paste a key'}
          data-testid={`key-input-${provider}`}
          onChange={(event) => setKey(event.target.value)}
        />
        <button
          type="submit"
          className="button small primary"
          data-testid={`key-save-${provider}`}
          disabled={key.trim() === ''}
        >
          Save
        </button>
        {stored ? (
          <button
            type="button"
            className="button small"
            data-testid={`key-remove-${provider}`}
            onClick={() => void save(null)}
          >
            Remove
          </button>
        ) : null}
      </form>
      {message ? (
        <p className={message.ok ? 'card-note' : 'card-error'} role="status">
          {message.text}
        </p>
      ) : null}
    </div>
  );
}

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
      <h3>API keys</h3>
      <p className="card-note">
        Keys are kept by the app, encrypted where the system allows; they never come back to this window.
      </p>
      {KEYED_PROVIDERS.map((provider) => (
        <KeyRow key={provider.id} provider={provider.id} name={provider.label} stored={settings.keys[provider.id]} />
      ))}
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
        <SelectSetting name="effort" slug="effort" value={settings.effort} />
        <SelectSetting name="send_key" slug="send-key" value={settings.send_key} />
        <EditLimitField mib={settingOf(settings, 'max_edit_file_mib')} />
        <CompactionField percent={settingOf(settings, 'compact_at_percent')} />
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
    </section>
  );
}
