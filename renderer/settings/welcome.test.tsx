// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderId, Settings } from '../../protocol/api.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { Welcome } from './Welcome.tsx';

// The first-run offer follows what the panel service says the selected model lacks.

afterEach(() => {
  cleanup();
  usePanel.setState({
    settings: null,
    sessions: [],
    sessionsLoaded: false,
    welcomeDismissed: false,
    keysFromEnvironment: false,
  });
});

const noActions = new Proxy({} as PanelActions, { get: () => async () => undefined });

function showFirstRun(
  model: string,
  missing: ProviderId | null,
  keys: Settings['keys'] = { anthropic: false, openai: false },
) {
  usePanel.setState({
    settings: {
      model,
      effort: 'medium',
      permission_mode: 'ask',
      theme: 'system',
      keys,
      missing_key: missing,
      send_key: 'enter',
      updates_enabled: false,
    },
    sessions: [],
    sessionsLoaded: true,
  });
  render(
    <ActionsContext.Provider value={noActions}>
      <Welcome />
    </ActionsContext.Provider>,
  );
}

describe('Welcome', () => {
  it('offers the demo model when the selected model needs a key it does not have', () => {
    showFirstRun('anthropic:claude-sonnet-4-5', 'anthropic');
    expect(screen.getByTestId('welcome').textContent).toContain(
      'anthropic:claude-sonnet-4-5 needs an Anthropic API key',
    );
    expect(screen.getByTestId('use-demo-model')).toBeTruthy();
  });

  it('stays away for a model that needs no key, though no key is stored', () => {
    showFirstRun('compat:http://127.0.0.1:11434/v1#llama3.2', null);
    expect(screen.queryByTestId('welcome')).toBeNull();
  });

  it('shows for a model whose provider lacks a key even when another provider has one', () => {
    showFirstRun('openai:gpt-5', 'openai', { anthropic: true, openai: false });
    expect(screen.getByTestId('welcome').textContent).toContain('OpenAI');
  });

  it('in the browser panel, names the variable to set instead of a key screen it cannot use', () => {
    usePanel.setState({ keysFromEnvironment: true });
    showFirstRun('anthropic:claude-sonnet-4-5', 'anthropic');
    expect(screen.getByTestId('welcome').textContent).toContain(
      'set ANTHROPIC_API_KEY in the environment of aether serve and start it again',
    );
    expect(screen.queryByTestId('open-key-settings')).toBeNull();
    expect(screen.getByTestId('use-demo-model')).toBeTruthy();
  });
});
