import { useEffect, useState } from 'react';
import type { Theme } from '../protocol/api.ts';

// Light and dark follow the OS (prefers-color-scheme) unless the settings say otherwise.

const QUERY = '(prefers-color-scheme: dark)';

function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia(QUERY).matches;
}

export function resolveTheme(setting: Theme, prefersDark: boolean): 'light' | 'dark' {
  if (setting === 'system') return prefersDark ? 'dark' : 'light';
  return setting;
}

/** Keeps `<html data-theme>` in step with the setting and the OS. */
export function useDocumentTheme(setting: Theme): 'light' | 'dark' {
  const [prefersDark, setPrefersDark] = useState(systemPrefersDark);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const media = matchMedia(QUERY);
    const onChange = () => setPrefersDark(media.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  const theme = resolveTheme(setting, prefersDark);
  useEffect(() => {
    document.documentElement.dataset['theme'] = theme;
    document.documentElement.style.colorScheme = theme;
  }, [theme]);
  return theme;
}
