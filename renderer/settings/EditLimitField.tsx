import { useEffect, useState } from 'react';
import { useActions } from '../actions.ts';

// The largest file write_file and patch_file read whole, in MiB (max_edit_file_mib). A bigger file
// is refused before it is read; the main process holds the same bounds and has the last word.

const MIN_MIB = 1;
const MAX_MIB = 2047;
export const DEFAULT_EDIT_MIB = 64;

export function EditLimitField({ mib }: { mib: number }) {
  const actions = useActions();
  const [text, setText] = useState(String(mib));
  useEffect(() => setText(String(mib)), [mib]);
  const commit = (): void => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < MIN_MIB || value > MAX_MIB) {
      setText(String(mib));
      return;
    }
    if (value !== mib) void actions.updateSettings({ max_edit_file_mib: value });
  };
  return (
    <>
      <label htmlFor="settings-max-edit">Largest file to edit (MiB)</label>
      <input
        id="settings-max-edit"
        data-testid="max-edit-input"
        type="number"
        min={MIN_MIB}
        max={MAX_MIB}
        step={1}
        value={text}
        title={`write_file and patch_file refuse larger files before reading them (${MIN_MIB}–${MAX_MIB})`}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
    </>
  );
}
