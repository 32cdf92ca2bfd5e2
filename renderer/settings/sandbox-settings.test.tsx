// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_RULES } from '../../protocol/sandbox.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { SandboxSettings } from './SandboxSettings.tsx';

// The sandbox mode's part of Settings: its rules in a line, and, where no sandbox can start here,
// why and what to do — the mode then asks before every command.

afterEach(() => {
  cleanup();
  usePanel.setState({ sandboxUnavailable: null });
});

const noActions = new Proxy({} as PanelActions, { get: () => async () => undefined });

function show() {
  render(
    <ActionsContext.Provider value={noActions}>
      <SandboxSettings rules={DEFAULT_SANDBOX_RULES} />
    </ActionsContext.Provider>,
  );
}

describe('Settings → sandbox', () => {
  it('says why the sandbox cannot start here, with what to do', () => {
    const notice =
      'The sandbox cannot start: bubblewrap (bwrap) is not installed. Install it: sudo apt install bubblewrap (Debian, Ubuntu). Until then the sandbox mode asks before every command, as the ask mode does.';
    usePanel.setState({ sandboxUnavailable: notice });
    show();
    expect(screen.getByTestId('sandbox-unavailable').textContent).toBe(notice);
    expect(screen.getByTestId('sandbox-rules').textContent).toContain('no network');
  });

  it('says nothing of the kind where it can', () => {
    show();
    expect(screen.queryByTestId('sandbox-unavailable')).toBeNull();
  });
});
