import { useEffect, useRef, useState } from 'react';
import type { PermissionMode, ProviderId, SendKey, Theme } from '../../protocol/api.ts';
import type { ReasoningEffort } from '../../protocol/events.ts';
import { KEYED_PROVIDERS } from '../../protocol/providers.ts';
import { REASONING_EFFORTS } from '../../protocol/values.ts';
import { useActions } from '../actions.ts';
import { focusFell } from '../focus.ts';
import { usePanel } from '../store/store.ts';
import { CheckpointFields, DEFAULT_CHECKPOINT_FILE_MIB, DEFAULT_CHECKPOINT_MIB } from './CheckpointFields.tsx';
import { CompactionField, DEFAULT_COMPACT_PERCENT } from './CompactionField.tsx';
import { DEFAULT_EDIT_MIB, EditLimitField } from './EditLimitField.tsx';
import { McpServersSection } from './McpServers.tsx';
import { OpenFilesField } from './OpenFilesField.tsx';
import { PermissionRules } from './PermissionRules.tsx';
import { SessionGrants } from './SessionGrants.tsx';

// Settings: API keys (stored by the main process; the panel only learns whether one is stored),
// theme, permission mode, effort.

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
  const actions = useActions();
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
        <label htmlFor="settings-theme">Theme</label>
        <select
          id="settings-theme"
          data-testid="theme-select"
          value={settings.theme}
          onChange={(event) => void actions.updateSettings({ theme: event.target.value as Theme })}
        >
          <option value="system">Follow the system</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
        <label htmlFor="settings-permission">Tool permissions</label>
        <select
          id="settings-permission"
          data-testid="permission-select"
          value={settings.permission_mode}
          onChange={(event) => void actions.updateSettings({ permission_mode: event.target.value as PermissionMode })}
        >
          <option value="ask">Ask before writing or running</option>
          <option value="review">Review every write hunk by hunk; run commands without asking</option>
          <option value="auto">Allow everything</option>
          <option value="read-only">Read only</option>
          <option value="bypass">Bypass (dangerous): allow everything, protected paths too</option>
        </select>
        {settings.permission_mode === 'bypass' ? (
          <p className="mode-danger settings-wide" role="alert" data-testid="bypass-warning">
            Bypass lets the model write .git/ (hooks, config), .aethercodex/ and editor task, launch and settings files
            without asking: a write there can run commands the next time you use git or your editor.
          </p>
        ) : null}
        <label htmlFor="settings-effort">Reasoning effort</label>
        <select
          id="settings-effort"
          data-testid="effort-select"
          value={settings.effort}
          onChange={(event) => void actions.updateSettings({ effort: event.target.value as ReasoningEffort })}
        >
          {REASONING_EFFORTS.map((effort) => (
            <option key={effort} value={effort}>
              {effort}
            </option>
          ))}
        </select>
        <label htmlFor="settings-send-key">Send a message with</label>
        <select
          id="settings-send-key"
          data-testid="send-key-select"
          value={settings.send_key}
          onChange={(event) => void actions.updateSettings({ send_key: event.target.value as SendKey })}
        >
          <option value="enter">Enter (Shift+Enter for a new line)</option>
          <option value="ctrl-enter">Ctrl/Cmd+Enter (Enter for a new line)</option>
        </select>
        <EditLimitField mib={settings.max_edit_file_mib ?? DEFAULT_EDIT_MIB} />
        <CompactionField
          percent={settings.compact_at_percent === undefined ? DEFAULT_COMPACT_PERCENT : settings.compact_at_percent}
        />
        <CheckpointFields
          enabled={settings.checkpoints_enabled ?? true}
          mib={settings.checkpoint_storage_mib ?? DEFAULT_CHECKPOINT_MIB}
          fileMib={settings.checkpoint_max_file_mib ?? DEFAULT_CHECKPOINT_FILE_MIB}
        />
        <OpenFilesField openIn={settings.open_files_in ?? 'viewer'} command={settings.editor_command ?? ''} />
      </div>
      <PermissionRules />
      <SessionGrants />
      <McpServersSection />
    </section>
  );
}
