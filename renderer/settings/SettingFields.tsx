import { useEffect, useState } from 'react';
import type { SettingsPatch } from '../../protocol/api.ts';
import {
  enumChoices,
  numberBounds,
  settingInfoOf,
  settingLabel,
  type PanelSettingKey,
} from '../../protocol/settings.ts';
import { useActions } from '../actions.ts';

// The Settings screen's plain fields, each from its entry in protocol/settings.ts: the label is
// the setting's title (and unit), the help its description, the choices and bounds its schema's.
// `slug` names the field's element ids. The main process checks every value again and has the
// last word.

function patchOf(name: PanelSettingKey, value: string | number): SettingsPatch {
  return { [name]: value } as SettingsPatch;
}

/** One of an enum setting's values; the description is the select's help. */
export function SelectSetting({ name, slug, value }: { name: PanelSettingKey; slug: string; value: string }) {
  const actions = useActions();
  return (
    <>
      <label htmlFor={`settings-${slug}`}>{settingLabel(name)}</label>
      <select
        id={`settings-${slug}`}
        data-testid={`${slug}-select`}
        value={value}
        title={settingInfoOf(name).description}
        onChange={(event) => void actions.updateSettings(patchOf(name, event.target.value))}
      >
        {enumChoices(name).map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </>
  );
}

interface NumberProps {
  name: PanelSettingKey;
  slug: string;
  value: number;
  disabled?: boolean;
  /**
   * `title`: the description is the field's tooltip, and a value out of bounds is put back.
   * `note`: the description shows under the field, and a value out of bounds is refused there.
   */
  help?: 'title' | 'note';
}

/** A whole number within the setting's bounds, saved when the field is left or Enter pressed. */
export function NumberSetting({ name, slug, value, disabled = false, help = 'title' }: NumberProps) {
  const actions = useActions();
  const { min, max } = numberBounds(name);
  const { description, unit = '' } = settingInfoOf(name);
  const label = settingLabel(name);
  const [text, setText] = useState(String(value));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setText(String(value)), [value]);
  const commit = (): void => {
    const next = Number(text);
    if (!Number.isInteger(next) || next < min || next > max) {
      if (help === 'note')
        setError(`Give a whole number of ${unit} from ${min} to ${max}; it stays at ${value} ${unit}.`);
      setText(String(value));
      return;
    }
    setError(null);
    if (next !== value) void actions.updateSettings(patchOf(name, next));
  };
  const noted = help === 'note';
  return (
    <>
      <label htmlFor={`settings-${slug}`}>{label}</label>
      <input
        id={`settings-${slug}`}
        data-testid={`${slug}-input`}
        type="number"
        min={min}
        max={max}
        step={1}
        value={text}
        disabled={disabled}
        aria-describedby={noted ? `settings-${slug}-note` : undefined}
        aria-invalid={noted ? error !== null : undefined}
        title={noted ? `${label}: ${min}–${max}` : `${description} (${min}–${max})`}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
      {noted ? (
        <p
          className={`settings-wide ${error ? 'mode-danger' : 'card-note'}`}
          id={`settings-${slug}-note`}
          data-testid={`${slug}-note`}
          role={error ? 'alert' : undefined}
        >
          {error ?? description}
        </p>
      ) : null}
    </>
  );
}
