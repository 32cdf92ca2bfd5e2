import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { errorMessage } from '../../protocol/errors.ts';
import {
  elicitProblems,
  type ElicitContent,
  type ElicitField,
  type ElicitationView,
} from '../../protocol/elicitation.ts';
import { useActions } from '../actions.ts';

// One form an MCP server asks for: a field for each property of its schema (text, number, yes/no,
// one choice, several), required ones marked, checked before Accept with each problem under its
// field. Enter accepts, Esc cancels; Decline says no without an answer.

/** What the inputs hold: text for text and numbers (parsed on Accept), a tick, the ticked choices. */
type Draft = Record<string, string | boolean | string[]>;

function initialDraft(fields: readonly ElicitField[]): Draft {
  const draft: Draft = {};
  for (const field of fields) {
    if (field.kind === 'boolean') draft[field.name] = field.default ?? false;
    else if (field.kind === 'choices') draft[field.name] = field.default ?? [];
    else if (field.kind === 'number') draft[field.name] = field.default === undefined ? '' : String(field.default);
    else draft[field.name] = field.default ?? '';
  }
  return draft;
}

/** The answer the draft makes: blank fields left out, numbers as numbers. */
function contentOf(fields: readonly ElicitField[], draft: Draft): ElicitContent {
  const content: ElicitContent = {};
  for (const field of fields) {
    const value = draft[field.name];
    if (value === undefined || value === '') continue;
    if (field.kind === 'number' && typeof value === 'string') {
      content[field.name] = Number(value.trim());
      continue;
    }
    if (field.kind === 'choices' && Array.isArray(value) && value.length === 0 && !field.required) continue;
    content[field.name] = value;
  }
  return content;
}

export function McpForm({ form, first }: { form: ElicitationView; first: boolean }) {
  const actions = useActions();
  const [draft, setDraft] = useState<Draft>(() => initialDraft(form.fields));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const root = useRef<HTMLFormElement>(null);
  const id = `mcp-form-${form.id}`;

  useEffect(() => {
    // The first form takes the keyboard as it appears: its first field, else its Accept.
    if (first) root.current?.querySelector<HTMLElement>('input, select, button')?.focus();
  }, [first]);

  const send = async (action: 'accept' | 'decline' | 'cancel') => {
    setError(null);
    const content = contentOf(form.fields, draft);
    if (action === 'accept') {
      const found = elicitProblems(form.fields, content);
      setProblems(found);
      const firstBad = form.fields.find((field) => found[field.name]);
      if (firstBad) {
        root.current?.querySelector<HTMLElement>(`[name="${CSS.escape(firstBad.name)}"]`)?.focus();
        return;
      }
    }
    setBusy(true);
    try {
      const result = await actions.answerMcpForm({ id: form.id, action, ...(action === 'accept' ? { content } : {}) });
      if (!result.ok) setError(result.error);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send('accept');
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    void send('cancel');
  };
  const set = (name: string, value: string | boolean | string[]) => {
    setDraft((now) => ({ ...now, [name]: value }));
    // A field's problem is said again on the next Accept, not kept while it is being fixed.
    setProblems(({ [name]: _fixed, ...rest }) => rest);
  };

  return (
    <form
      ref={root}
      className="mcp-form approval"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-message`}
      data-testid="mcp-form"
      noValidate
      onSubmit={onSubmit}
      onKeyDown={onKeyDown}
    >
      <p id={`${id}-title`} className="approval-title">
        The MCP server <code>{form.server}</code> asks
      </p>
      <p id={`${id}-message`} className="mcp-form-message" data-testid="mcp-form-message">
        {form.message}
      </p>
      {form.fields.map((field) => (
        <FieldInput
          key={field.name}
          formId={id}
          field={field}
          value={draft[field.name]}
          problem={problems[field.name] ?? null}
          onChange={(value) => set(field.name, value)}
        />
      ))}
      {error ? (
        <p className="card-error" role="alert" data-testid="mcp-form-error">
          {error}
        </p>
      ) : null}
      <div className="approval-buttons">
        <button type="submit" className="button small primary" disabled={busy} data-testid="mcp-form-accept">
          Accept
        </button>
        <button
          type="button"
          className="button small"
          disabled={busy}
          data-testid="mcp-form-decline"
          onClick={() => void send('decline')}
        >
          Decline
        </button>
        <button
          type="button"
          className="button small"
          disabled={busy}
          data-testid="mcp-form-cancel"
          onClick={() => void send('cancel')}
        >
          Cancel
        </button>
        <span className="card-note">Enter accepts · Esc cancels</span>
      </div>
    </form>
  );
}

interface FieldProps {
  formId: string;
  field: ElicitField;
  value: string | boolean | string[] | undefined;
  problem: string | null;
  onChange(value: string | boolean | string[]): void;
}

const TEXT_TYPES = { email: 'email', uri: 'url', date: 'date', 'date-time': 'text' } as const;

function FieldInput({ formId, field, value, problem, onChange }: FieldProps) {
  const id = `${formId}-${field.name}`.replace(/[^\w-]/g, '_');
  const described = [field.description ? `${id}-what` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ');
  const common = {
    id,
    name: field.name,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': described || undefined,
    'aria-required': field.required || undefined,
  };
  const label = (
    <label htmlFor={id} className="mcp-form-label">
      {field.label}
      {field.required ? <span className="mcp-form-required"> (required)</span> : null}
    </label>
  );
  const after = (
    <>
      {field.description ? (
        <span id={`${id}-what`} className="card-note mcp-form-what">
          {field.description}
        </span>
      ) : null}
      {problem ? (
        <span id={`${id}-problem`} className="mcp-form-problem" data-testid="mcp-form-problem">
          {problem}
        </span>
      ) : null}
    </>
  );
  switch (field.kind) {
    case 'boolean':
      return (
        <div className="mcp-form-field mcp-form-check" data-testid={`mcp-field-${field.name}`}>
          <input
            {...common}
            type="checkbox"
            checked={value === true}
            onChange={(event) => onChange(event.target.checked)}
          />
          {label}
          {after}
        </div>
      );
    case 'choice':
      return (
        <div className="mcp-form-field" data-testid={`mcp-field-${field.name}`}>
          {label}
          <select
            {...common}
            value={typeof value === 'string' ? value : ''}
            onChange={(event) => onChange(event.target.value)}
          >
            {field.default === undefined ? <option value="">Choose…</option> : null}
            {field.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          {after}
        </div>
      );
    case 'choices': {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <fieldset
          className="mcp-form-field mcp-form-choices"
          data-testid={`mcp-field-${field.name}`}
          aria-invalid={problem ? true : undefined}
          aria-describedby={described || undefined}
        >
          <legend className="mcp-form-label">
            {field.label}
            {field.required ? <span className="mcp-form-required"> (required)</span> : null}
          </legend>
          {field.options.map((option, index) => (
            <label key={option.value} className="mcp-form-option">
              <input
                type="checkbox"
                name={index === 0 ? field.name : undefined}
                checked={chosen.includes(option.value)}
                onChange={(event) =>
                  onChange(
                    event.target.checked ? [...chosen, option.value] : chosen.filter((item) => item !== option.value),
                  )
                }
              />
              {option.label}
            </label>
          ))}
          {after}
        </fieldset>
      );
    }
    case 'number':
      return (
        <div className="mcp-form-field" data-testid={`mcp-field-${field.name}`}>
          {label}
          <input
            {...common}
            type="number"
            inputMode={field.integer ? 'numeric' : 'decimal'}
            step={field.integer ? 1 : 'any'}
            min={field.minimum}
            max={field.maximum}
            value={typeof value === 'string' ? value : ''}
            onChange={(event) => onChange(event.target.value)}
          />
          {after}
        </div>
      );
    case 'text':
      return (
        <div className="mcp-form-field" data-testid={`mcp-field-${field.name}`}>
          {label}
          <input
            {...common}
            type={field.format ? TEXT_TYPES[field.format] : 'text'}
            maxLength={field.max_length}
            placeholder={field.format === 'date-time' ? 'YYYY-MM-DDTHH:MM' : undefined}
            value={typeof value === 'string' ? value : ''}
            onChange={(event) => onChange(event.target.value)}
          />
          {after}
        </div>
      );
  }
}
