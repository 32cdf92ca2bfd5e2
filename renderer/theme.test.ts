import { describe, expect, it } from 'vitest';
import { resolveTheme } from './theme.ts';

describe('theme', () => {
  it('follows the OS when the setting is system', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
  });

  it('lets the setting override the OS', () => {
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });
});
