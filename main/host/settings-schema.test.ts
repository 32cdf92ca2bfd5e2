import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  PANEL_SETTING_KEYS,
  SETTING_KEYS,
  settingDefault,
  settingInfoOf,
  SETTINGS_SHAPE,
  type SettingKey,
} from '../../protocol/settings.ts';
import { settingsPatchSchema } from './panel-schemas.ts';
import { readSettingsFields } from './settings-fields.ts';

// Each setting is one entry of protocol/settings.ts; its default, the file reader, the panel's
// patch and the Settings screen's text are derived from it. These check that the derivations agree
// for every entry, so a new one is covered without adding anything here.

/** A value the setting's schema takes: its default, or the first of a few plain values it accepts. */
function sample(key: SettingKey): unknown {
  const fallback = settingDefault(key);
  if (fallback !== undefined) return fallback;
  const found = ['viewer', 'x', 1, true, [], {}].find((value) => SETTINGS_SHAPE[key].safeParse(value).success);
  if (found === undefined) throw new Error(`No sample value for ${key}: add one the schema takes.`);
  return found;
}

/** A value the setting's schema refuses. */
function wrong(key: SettingKey): unknown {
  const found = [{ not: 'a setting' }, 'not a setting', -1].find(
    (value) => !SETTINGS_SHAPE[key].safeParse(value).success,
  );
  if (found === undefined) throw new Error(`No refused value for ${key}.`);
  return found;
}

const everySample = Object.fromEntries(SETTING_KEYS.map((key) => [key, sample(key)]));

describe('the settings schema', () => {
  it('gives every setting a title and a description', () => {
    for (const key of SETTING_KEYS) {
      const info = settingInfoOf(key);
      expect(info.title.trim(), key).not.toBe('');
      expect(info.description.trim(), key).not.toBe('');
    }
  });

  it('names an enum setting’s values exactly when it names them', () => {
    for (const key of SETTING_KEYS) {
      const options = settingInfoOf(key).options;
      if (options === undefined) continue;
      for (const value of Object.keys(options)) expect(SETTINGS_SHAPE[key].safeParse(value).success, key).toBe(true);
    }
  });

  it('has defaults its own schemas take, and a file without settings reads as them', () => {
    for (const key of SETTING_KEYS) {
      const fallback = settingDefault(key);
      if (fallback === undefined) expect(Object.hasOwn(DEFAULT_SETTINGS, key), key).toBe(false);
      else expect(SETTINGS_SHAPE[key].parse(fallback), key).toEqual(fallback);
    }
    expect(readSettingsFields({})).toEqual({ settings: DEFAULT_SETTINGS, ignored: [] });
    expect(readSettingsFields(everySample)).toEqual({ settings: everySample, ignored: [] });
  });

  it('reads each setting on its own: one wrong value falls back alone, and is the one named', () => {
    for (const key of SETTING_KEYS) {
      const { settings, ignored } = readSettingsFields({ ...everySample, [key]: wrong(key) });
      const expected = { ...everySample, [key]: settingDefault(key) };
      if (settingDefault(key) === undefined) delete expected[key];
      expect(settings, key).toEqual(expected);
      expect(new Set(ignored.map((value) => value.key)), key).toEqual(new Set([key]));
    }
  });

  it('lets the panel change exactly the panel settings, and fills in nothing it left out', () => {
    for (const key of SETTING_KEYS) {
      const parsed = settingsPatchSchema.safeParse({ [key]: sample(key) });
      expect(parsed.success, key).toBe(PANEL_SETTING_KEYS.includes(key as (typeof PANEL_SETTING_KEYS)[number]));
    }
    expect(settingsPatchSchema.parse({})).toEqual({});
    expect(settingsPatchSchema.safeParse({ not_a_setting: true }).success).toBe(false);
  });
});
