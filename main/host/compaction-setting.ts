import { settingDefault } from '../../protocol/settings.ts';
import type { StoredSettings } from './settings-store.ts';

// The compaction threshold as the settings say now: every session the panel opens reads it before
// each model step, so a change applies from the next request on, without reopening anything.

export class CompactionSetting {
  private percent: number | null = settingDefault('compact_at_percent');

  /** Takes the threshold from the settings (absent: the default; null: no automatic compaction). */
  apply(settings: Partial<Pick<StoredSettings, 'compact_at_percent'>>): void {
    this.percent =
      settings.compact_at_percent === undefined ? settingDefault('compact_at_percent') : settings.compact_at_percent;
  }

  /** The fraction of the window a session compacts at, as the settings say now; null: off. */
  readonly threshold = (): number | null => (this.percent === null ? null : this.percent / 100);
}
