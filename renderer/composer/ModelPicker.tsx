import { useEffect, useRef, useState } from 'react';
import type { ServerModelChoice } from '../../protocol/models.ts';
import { useActions } from '../actions.ts';
import { focusFell, focusMessageBox } from '../focus.ts';
import { usePanel } from '../store/store.ts';
import { modelLabels } from './model-label.ts';

// The model for the next turns, from the models the panel offers (`info().models`), or any id typed
// after "Other model…" (`anthropic:…`, `openai:…`, `compat:<baseURL>#<model>`). A switch the host
// refuses (no key, a server that is down or does not offer the model) says why beside the picker,
// and the model selected before stays selected: a message never goes to a model not shown here.
// A compatible server's own models are listed too: those of the current model's server in the
// picker, and those of a server being typed (`compat:<baseURL>`) as suggestions under the field.
// Each is labelled by its name first (model-label.ts): a narrow picker still tells them apart.
// Focus never falls to the page: a refused typed id gives the field back with its text selected, to
// fix; a typed id that worked, back to the message box; Esc in the field, back to the picker; a
// model picked from the list, the picker again once the switch is done.

const OTHER = '\u0000other';
const PLACEHOLDER = 'compat:http://127.0.0.1:11434/v1#llama3.2';
/** How long typing rests before the server being typed is asked for its models. */
const ASK_AFTER_MS = 400;

/** `compat:<baseURL>#…` → its base URL, when it is one. */
function serverOf(id: string): string | null {
  const base = /^compat:([^#\s]+)/.exec(id)?.[1];
  return base && /^https?:\/\/[^/]/.test(base) ? base : null;
}

type Listed = { base: string; choices: ServerModelChoice[]; error: string | null };

/**
 * What a compatible server offers, asked once the base URL has stayed the same for a moment, and
 * again whenever `asked` changes (a model switched to: the server may offer others by now).
 */
function useServerModels(base: string | null, asked: string = ''): Listed | null {
  const actions = useActions();
  const [listed, setListed] = useState<Listed | null>(null);
  useEffect(() => {
    if (base === null) return;
    let live = true;
    const timer = window.setTimeout(() => {
      void actions.serverModels(base).then((result) => {
        if (!live) return;
        setListed(
          result.ok ? { base, choices: result.value, error: null } : { base, choices: [], error: result.error },
        );
      });
    }, ASK_AFTER_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [actions, base, asked]);
  return listed !== null && listed.base === base ? listed : null;
}

export function ModelPicker() {
  const actions = useActions();
  const models = usePanel((state) => state.models);
  const current = usePanel((state) => state.settings?.model ?? '');
  const [typing, setTyping] = useState(false);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const picker = useRef<HTMLSelectElement>(null);
  const field = useRef<HTMLInputElement>(null);
  // Where focus goes once the controls are enabled again (they are disabled while a switch runs).
  const [refocus, setRefocus] = useState<'field' | 'picker' | 'box' | null>(null);
  useEffect(() => {
    if (refocus === null || busy) return;
    setRefocus(null);
    // A person who moved on meanwhile is left where they are.
    if (!focusFell() && document.activeElement !== field.current) return;
    if (refocus === 'field') {
      field.current?.focus();
      field.current?.select();
    } else if (refocus === 'picker') picker.current?.focus();
    else focusMessageBox();
  }, [refocus, busy]);
  const offered = useServerModels(serverOf(current), current);
  const typed = useServerModels(typing ? serverOf(draft.trim()) : null);
  // Until the settings arrive the current model is unknown: the picker offers nothing rather than
  // showing the first model of the list as if it were the one in use.
  const options = current
    ? [...new Set([current, ...models, ...(offered?.choices.map((choice) => choice.id) ?? [])])]
    : [];
  const labels = modelLabels(options);

  const apply = async (id: string, from: 'field' | 'picker'): Promise<void> => {
    if (id.length === 0) return;
    setBusy(true);
    const switched = await actions.switchModel(id);
    setBusy(false);
    if (switched.ok) {
      setError(null);
      setTyping(false);
      setDraft('');
    } else setError(switched.error);
    setRefocus(from === 'picker' ? 'picker' : switched.ok ? 'box' : 'field');
  };

  return (
    <span className="model-choice">
      <select
        ref={picker}
        className="model-picker"
        data-testid="model-picker"
        aria-label="Model"
        title={current}
        value={current}
        disabled={options.length === 0 || busy}
        onChange={(event) => {
          if (event.target.value === OTHER) {
            setTyping(true);
            setError(null);
          } else void apply(event.target.value, 'picker');
        }}
      >
        {options.length === 0 ? <option value="">Loading…</option> : null}
        {options.map((model) => (
          <option key={model} value={model} title={model}>
            {labels.get(model) ?? model}
          </option>
        ))}
        {options.length === 0 ? null : <option value={OTHER}>Other model…</option>}
      </select>
      {typing ? (
        <input
          ref={field}
          className="model-id-input"
          data-testid="model-id-input"
          aria-label="Model id"
          placeholder={PLACEHOLDER}
          value={draft}
          disabled={busy}
          autoFocus
          spellCheck={false}
          list="server-models"
          aria-describedby="server-models-status"
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              void apply(draft.trim(), 'field');
            } else if (event.key === 'Escape') {
              event.stopPropagation();
              setTyping(false);
              setError(null);
              setRefocus('picker');
            }
          }}
        />
      ) : null}
      {typing && typed ? (
        <>
          <datalist id="server-models" data-testid="server-models">
            {typed.choices.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.context_window
                  ? `${choice.name} (${choice.context_window.toLocaleString('en')} tokens)`
                  : choice.name}
              </option>
            ))}
          </datalist>
          <span
            id="server-models-status"
            className="model-server-status"
            role="status"
            data-testid="server-models-status"
          >
            {/* A refused switch to that server says the same beside the picker: said once. */}
            {typed.error === null
              ? `${typed.choices.length} model${typed.choices.length === 1 ? '' : 's'} on this server`
              : typed.error === error
                ? ''
                : typed.error}
          </span>
        </>
      ) : null}
      {error ? (
        <span className="model-error" role="alert" data-testid="model-error">
          {error}
        </span>
      ) : null}
    </span>
  );
}
