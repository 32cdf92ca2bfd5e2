import { useState } from 'react';
import type { ProviderId, Settings } from '../../protocol/api.ts';
import { KEYED_PROVIDERS } from '../../protocol/providers.ts';
import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';

// Settings → API keys. The desktop app keeps a key typed here (the main process stores it; the panel
// only learns whether one is stored): one field per provider that needs one. The browser panel's
// host cannot keep one — it reads keys from the environment of `aether serve` — so instead of fields
// that could only fail, it says which variable each provider's key comes from and whether it is set.

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

/** Where the browser panel's keys come from: the variables `aether serve` was started with. */
function EnvironmentKeys({ keys }: { keys: Settings['keys'] }) {
  return (
    <>
      <p className="card-note" data-testid="keys-from-environment">
        This browser panel cannot store keys: <code>aether serve</code> reads them from its environment. Set the
        variable and start it again, or use the desktop app, which keeps keys encrypted.
      </p>
      <ul className="env-keys">
        {KEYED_PROVIDERS.map((provider) => (
          <li key={provider.id} className="env-key">
            <span>{provider.label}</span>
            <code>{provider.keyVariable}</code>
            <span className={`badge ${keys[provider.id] ? 'badge-ok' : ''}`} data-testid={`key-status-${provider.id}`}>
              {keys[provider.id] ? 'set' : 'not set'}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

export function ApiKeys({ keys }: { keys: Settings['keys'] }) {
  const fromEnvironment = usePanel((state) => state.keysFromEnvironment);
  return (
    <>
      <h3>API keys</h3>
      {fromEnvironment ? (
        <EnvironmentKeys keys={keys} />
      ) : (
        <>
          <p className="card-note">
            Keys are kept by the app, encrypted where the system allows; they never come back to this window.
          </p>
          {KEYED_PROVIDERS.map((provider) => (
            <KeyRow key={provider.id} provider={provider.id} name={provider.label} stored={keys[provider.id]} />
          ))}
        </>
      )}
    </>
  );
}
