import { useEffect, useState } from 'react';
import { numberBounds, settingDefault, settingInfoOf, settingLabel } from '../../protocol/settings.ts';
import { useActions } from '../actions.ts';

// When the model context is compacted by itself (compact_at_percent): once the next request would
// pass this share of the model's window. Off leaves it to the Compact button, except that a context
// bigger than the window is still compacted (with a notice) rather than sent to fail.

const { min: MIN_PERCENT, max: MAX_PERCENT } = numberBounds('compact_at_percent');
const DEFAULT_COMPACT_PERCENT = settingDefault('compact_at_percent') ?? MAX_PERCENT;

export function CompactionField({ percent }: { percent: number | null }) {
  const actions = useActions();
  const [text, setText] = useState(String(percent ?? DEFAULT_COMPACT_PERCENT));
  useEffect(() => setText(String(percent ?? DEFAULT_COMPACT_PERCENT)), [percent]);
  const commit = (): void => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < MIN_PERCENT || value > MAX_PERCENT) {
      setText(String(percent ?? DEFAULT_COMPACT_PERCENT));
      return;
    }
    if (value !== percent) void actions.updateSettings({ compact_at_percent: value });
  };
  const off = percent === null;
  return (
    <>
      <label htmlFor="settings-compact-at">{settingLabel('compact_at_percent')}</label>
      <span className="settings-inline">
        <input
          id="settings-compact-at"
          data-testid="compact-at-input"
          type="number"
          min={MIN_PERCENT}
          max={MAX_PERCENT}
          step={1}
          value={text}
          disabled={off}
          title={`${settingInfoOf('compact_at_percent').description} (${MIN_PERCENT}–${MAX_PERCENT})`}
          onChange={(event) => setText(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit();
          }}
        />
        <label>
          <input
            type="checkbox"
            data-testid="compact-auto"
            checked={!off}
            onChange={(event) =>
              void actions.updateSettings({
                compact_at_percent: event.target.checked ? Number(text) || DEFAULT_COMPACT_PERCENT : null,
              })
            }
          />{' '}
          automatically
        </label>
      </span>
    </>
  );
}
