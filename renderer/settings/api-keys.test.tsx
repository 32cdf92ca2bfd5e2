// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { ApiKeys } from './ApiKeys.tsx';

// The key fields are offered where a key typed into them can be kept (the desktop app); the browser
// panel's host reads keys from its environment, and says so instead of offering fields that fail.

afterEach(() => {
  cleanup();
  usePanel.setState({ keysFromEnvironment: false });
});

const noActions = new Proxy({} as PanelActions, { get: () => async () => undefined });

function showKeys(fromEnvironment: boolean) {
  usePanel.setState({ keysFromEnvironment: fromEnvironment });
  render(
    <ActionsContext.Provider value={noActions}>
      <ApiKeys keys={{ anthropic: true, openai: false }} />
    </ActionsContext.Provider>,
  );
}

describe('Settings → API keys', () => {
  it('offers a field per provider where the host keeps keys', () => {
    showKeys(false);
    expect(screen.getByTestId('key-input-anthropic')).toBeTruthy();
    expect(screen.getByTestId('key-input-openai')).toBeTruthy();
    expect(screen.queryByTestId('keys-from-environment')).toBeNull();
  });

  it('in the browser panel, names the variable each key comes from and whether it is set, with no field', () => {
    showKeys(true);
    expect(screen.queryAllByRole('textbox')).toEqual([]);
    expect(document.querySelector('input')).toBeNull();
    expect(screen.getByTestId('keys-from-environment').textContent).toContain('cannot store keys');
    const text = document.body.textContent ?? '';
    expect(text).toContain('ANTHROPIC_API_KEY');
    expect(text).toContain('OPENAI_API_KEY');
    expect(screen.getByTestId('key-status-anthropic').textContent).toBe('set');
    expect(screen.getByTestId('key-status-openai').textContent).toBe('not set');
  });
});
