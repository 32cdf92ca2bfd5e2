import { useState } from 'react';
import type { Result } from '../../protocol/api.ts';
import { errorMessage } from '../../protocol/errors.ts';
import type { McpChange, McpScreen, McpSecretView } from '../../protocol/mcp.ts';

// One secret a server's mcp.json entry names (`${secret:NAME}` in its headers or env): whether it is
// set, never its value. In the desktop app it can be set, replaced or cleared here (kept encrypted);
// elsewhere the field says which environment variable to set.

interface Props {
  server: string;
  secret: McpSecretView;
  storable: boolean;
  submit(request: McpChange): Promise<Result<McpScreen>>;
}

export function McpSecretField({ server, secret, storable, submit }: Props) {
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const id = `mcp-secret-${server}-${secret.name}`.replace(/[^\w-]/g, '_');
  const kept = secret.from === 'app';
  const save = async (next: string | null) => {
    setBusy(true);
    try {
      const result = await submit({ action: 'secret', name: server, secret: secret.name, value: next });
      if (result.ok) setValue('');
      setMessage(
        result.ok
          ? { ok: true, text: next === null ? 'Secret cleared.' : 'Secret saved; the server connects with it.' }
          : { ok: false, text: result.error },
      );
    } catch (error) {
      setMessage({ ok: false, text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="key-row mcp-secret" data-testid={`mcp-secret-${secret.name}`}>
      {storable ? (
        <label htmlFor={id}>
          Secret <code>{secret.name}</code>
        </label>
      ) : (
        <span>
          Secret <code>{secret.name}</code>
        </span>
      )}
      <span className={`badge ${secret.set ? 'badge-ok' : 'badge-error'}`} data-testid="mcp-secret-status">
        {secret.set ? 'set' : 'not set'}
      </span>
      {storable ? (
        <form
          className="key-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (value.trim() !== '') void save(value.trim());
          }}
        >
          <input
            id={id}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={value}
            placeholder={kept ? 'Replace the secret' : 'Paste the secret'}
            data-testid="mcp-secret-input"
            disabled={busy}
            onChange={(event) => setValue(event.target.value)}
          />
          <button
            type="submit"
            className="button small primary"
            data-testid="mcp-secret-save"
            disabled={busy || value.trim() === ''}
          >
            {kept ? 'Replace' : 'Set'}
          </button>
          {kept ? (
            <button
              type="button"
              className="button small"
              data-testid="mcp-secret-clear"
              disabled={busy}
              onClick={() => void save(null)}
            >
              Clear
            </button>
          ) : null}
        </form>
      ) : null}
      {storable && secret.from === 'environment' ? (
        <p className="card-note" data-testid="mcp-secret-from">
          From the environment variable <code>{secret.name}</code>; a secret set here is used instead.
        </p>
      ) : null}
      {storable ? null : (
        <p className="card-note">
          From the environment variable <code>{secret.name}</code> of the process that serves this panel; the desktop
          app can keep it instead.
        </p>
      )}
      {message ? (
        <p className={message.ok ? 'card-note' : 'card-error'} role="status" data-testid="mcp-secret-message">
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
