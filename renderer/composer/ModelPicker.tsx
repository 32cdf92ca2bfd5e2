import { useState } from 'react';
import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';

// The model for the next turns, from the models the panel offers (`info().models`), or any id typed
// after "Other model…" (`anthropic:…`, `openai:…`, `compat:<baseURL>#<model>`). A switch the host
// refuses (no key, a server that is down or does not offer the model) says why beside the picker,
// and the model selected before stays selected: a message never goes to a model not shown here.

const OTHER = '\u0000other';
const PLACEHOLDER = 'compat:http://127.0.0.1:11434/v1#llama3.2';

export function ModelPicker() {
  const actions = useActions();
  const models = usePanel((state) => state.models);
  const current = usePanel((state) => state.settings?.model ?? '');
  const [typing, setTyping] = useState(false);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const options = current && !models.includes(current) ? [current, ...models] : models;

  const apply = async (id: string): Promise<void> => {
    if (id.length === 0) return;
    setBusy(true);
    const switched = await actions.switchModel(id);
    setBusy(false);
    if (switched.ok) {
      setError(null);
      setTyping(false);
      setDraft('');
    } else setError(switched.error);
  };

  return (
    <span className="model-choice">
      <select
        className="model-picker"
        data-testid="model-picker"
        aria-label="Model"
        value={current}
        disabled={options.length === 0 || busy}
        onChange={(event) => {
          if (event.target.value === OTHER) {
            setTyping(true);
            setError(null);
          } else void apply(event.target.value);
        }}
      >
        {options.map((model) => (
          <option key={model} value={model}>
            {model}
          </option>
        ))}
        <option value={OTHER}>Other model…</option>
      </select>
      {typing ? (
        <input
          className="model-id-input"
          data-testid="model-id-input"
          aria-label="Model id"
          placeholder={PLACEHOLDER}
          value={draft}
          disabled={busy}
          autoFocus
          spellCheck={false}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              void apply(draft.trim());
            } else if (event.key === 'Escape') {
              event.stopPropagation();
              setTyping(false);
              setError(null);
            }
          }}
        />
      ) : null}
      {error ? (
        <span className="model-error" role="alert" data-testid="model-error">
          {error}
        </span>
      ) : null}
    </span>
  );
}
