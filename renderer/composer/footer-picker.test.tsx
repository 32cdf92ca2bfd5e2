// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../protocol/api.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { Footer } from './Footer.tsx';
import { ModelPicker } from './ModelPicker.tsx';

// The model is named once, in the picker, by the part of its id that tells it apart; the footer
// names the session, in words until its first message names it.

afterEach(() => {
  cleanup();
  usePanel.setState({ settings: null, session: null, models: [] });
});

const noActions = new Proxy({} as PanelActions, { get: () => async () => undefined });
const compat = 'compat:http://127.0.0.1:43483/v1#scripted';

function show(model: string, models: string[]) {
  const settings: Settings = {
    model,
    effort: 'medium',
    permission_mode: 'ask',
    theme: 'system',
    keys: { anthropic: false, openai: false },
    missing_key: null,
    send_key: 'enter',
    updates_enabled: false,
  };
  usePanel.setState({ settings, models });
  render(
    <ActionsContext.Provider value={noActions}>
      <ModelPicker />
      <Footer />
    </ActionsContext.Provider>,
  );
}

describe('the model picker and the footer', () => {
  it('the footer has no copy of the model; the picker labels each model by its name first', () => {
    show(compat, ['anthropic:claude-sonnet-4-5', 'demo']);
    expect(screen.queryByTestId('footer-model')).toBeNull();
    expect(screen.getByTestId('footer').textContent).not.toContain('compat:');
    const picker = screen.getByTestId('model-picker');
    const options = within(picker).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'scripted · 127.0.0.1:43483',
      'claude-sonnet-4-5',
      'demo',
      'Other model…',
    ]);
    expect(options[0]?.getAttribute('value')).toBe(compat);
    expect(picker.getAttribute('title')).toBe(compat);
  });

  it('a new session without a message yet is "New session" in the footer, never its id', () => {
    usePanel.setState({
      session: {
        id: '2026-05-01T10-00-00-abc123',
        title: '',
        workspace: '/ws',
        created_at: '2026-05-01T10:00:00Z',
        updated_at: '2026-05-01T10:00:00Z',
      },
    });
    show(compat, []);
    expect(screen.getByTestId('footer-session').textContent).toBe('New session');
  });
});
