import { NumberSetting } from './SettingFields.tsx';

// The largest file write_file and patch_file read whole, in MiB (max_edit_file_mib). A bigger file
// is refused before it is read; the main process holds the same bounds and has the last word.

export function EditLimitField({ mib }: { mib: number }) {
  return <NumberSetting name="max_edit_file_mib" slug="max-edit" value={mib} />;
}
