// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PanelChannel, RequestOf, ResponseOf, Settings } from '../../protocol/api.ts';
import { panelClient } from '../../protocol/panel-client.ts';
import { ActionsContext, createActions, type PanelActions } from '../actions.ts';
import { ErrorBanner, SettingsFileBanner } from '../banners.tsx';
import { usePanel } from '../store/store.ts';
import { preloadBridge } from '../transport/bridge.ts';

// What the panel shows of a settings.json it cannot use, through the real actions and panel
// client over a host that answers from memory.

const FILE = '/home/me/.aethercodex/settings.json';
const UNREADABLE = `The settings file ${FILE} is not valid JSON at line 5, column 1 (${FILE}:5:1): a comma before '}': JSON allows none after the last property. Until it is fixed no session starts and no setting is saved over it: correct it (or move it away to start from the defaults), then try again.`;

const defaults: Settings = {
  model: 'demo',
  effort: 'medium',
  permission_mode: 'ask',
  theme: 'system',
  keys: { anthropic: false, openai: false },
  missing_key: null,
  send_key: 'enter',
  updates_enabled: false,
};

type Answers = { [C in PanelChannel]?: (request: RequestOf<C>) => ResponseOf<C> };

afterEach(() => {
  cleanup();
  usePanel.setState({ settings: null, error: null });
});

function showBanners(answers: Answers): PanelActions {
  const api = preloadBridge(
    panelClient({
      request: async (channel, request) => {
        const answer = answers[channel] as ((request: unknown) => never) | undefined;
        if (!answer) throw new Error(`not here: ${channel}`);
        return answer(request);
      },
      subscribe: () => () => undefined,
    }),
  );
  const actions = createActions(api, usePanel);
  render(
    <ActionsContext.Provider value={actions}>
      <ErrorBanner />
      <SettingsFileBanner />
    </ActionsContext.Provider>,
  );
  return actions;
}

describe('a settings file the panel cannot use', () => {
  it('stays in a banner naming the file and its line:column until a read finds it fixed', async () => {
    let settings: Settings = { ...defaults, file_problems: { path: FILE, unreadable: UNREADABLE, ignored: [] } };
    const actions = showBanners({ 'settings:get': () => ({ ok: true, value: settings }) });
    await act(() => actions.reloadSettings());
    const banner = screen.getByTestId('settings-file-banner');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(banner.textContent).toContain(`${FILE}:5:1`);
    expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();
    settings = defaults;
    fireEvent.click(screen.getByTestId('settings-file-recheck'));
    await waitFor(() => expect(screen.queryByTestId('settings-file-banner')).toBeNull());
  });

  it('shows a change refused because of the file in its banner, once, and keeps the settings shown', async () => {
    const actions = showBanners({
      'settings:get': () => ({
        ok: true,
        value: { ...defaults, file_problems: { path: FILE, unreadable: UNREADABLE, ignored: [] } },
      }),
      'settings:update': () => ({ ok: false, error: `Cannot change settings: ${UNREADABLE}` }),
    });
    await act(() => actions.updateSettings({ theme: 'dark' }));
    expect(screen.getByTestId('settings-file-banner').textContent).toContain(`${FILE}:5:1`);
    expect(screen.queryByTestId('error-banner')).toBeNull();
    expect(usePanel.getState().settings?.theme).toBe('system');
  });

  it('lists the values it does not use until dismissed', async () => {
    const ignored = [
      'exec_env_deny must be a list of variable names, such as ["AWS_*", "*_TOKEN"]: no variable is dropped because of it, so commands see them all.',
    ];
    const actions = showBanners({
      'settings:get': () => ({ ok: true, value: { ...defaults, file_problems: { path: FILE, ignored } } }),
    });
    await act(() => actions.reloadSettings());
    const banner = screen.getByTestId('settings-file-banner');
    expect(banner.getAttribute('role')).toBe('status');
    expect(banner.textContent).toContain(`Some values in ${FILE} are not used`);
    expect(banner.textContent).toContain('exec_env_deny must be a list of variable names');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('settings-file-banner')).toBeNull();
  });
});
