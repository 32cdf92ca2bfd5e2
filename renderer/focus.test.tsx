// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Settings } from '../protocol/api.ts';
import { ActionsContext, type PanelActions } from './actions.ts';
import { App } from './app.tsx';
import { CardFrame } from './cards/ToolCard.tsx';
import { Composer } from './composer/Composer.tsx';
import { usePanel } from './store/store.ts';
import { emptyTranscript, type ToolCallView } from './store/transcript-types.ts';

// Keyboard focus never falls to the page when the control under it goes away because of what the
// person did there: it lands on the control that naturally comes next.

afterEach(() => {
  cleanup();
  usePanel.setState({
    view: 'transcript',
    sessionsOpen: false,
    sessions: [],
    sessionsLoaded: false,
    session: null,
    settings: null,
    transcript: emptyTranscript(),
    welcomeDismissed: false,
  });
});

function actions(overrides: Partial<PanelActions> = {}): PanelActions {
  // No MCP server asks for a form here.
  const quiet: Partial<PanelActions> = {
    mcpForms: async () => ({ ok: true, value: [] }),
    onMcpForms: () => () => undefined,
  };
  return new Proxy({ ...quiet, ...overrides } as PanelActions, {
    get: (target, key: string) => target[key as keyof PanelActions] ?? (async () => undefined),
  });
}

const settings: Settings = {
  model: 'claude-x',
  effort: 'medium',
  permission_mode: 'ask',
  theme: 'system',
  keys: { anthropic: false, openai: false },
  missing_key: null,
  send_key: 'enter',
  updates_enabled: false,
};
const session = {
  id: 's1',
  title: 'Fix the build',
  workspace: '/w',
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-02T00:00:00Z',
};

function renderApp(overrides: Partial<PanelActions> = {}) {
  render(
    <ActionsContext.Provider value={actions(overrides)}>
      <App />
    </ActionsContext.Provider>,
  );
}

/** Focuses and presses a button, as Enter on a focused button does. */
function press(element: HTMLElement) {
  element.focus();
  fireEvent.click(element);
}

describe('focus', () => {
  it('returns to the settings button when the settings close with Done', () => {
    usePanel.setState({ settings, view: 'settings' });
    renderApp();
    press(screen.getByTestId('settings-close'));
    expect(document.activeElement).toBe(screen.getByTestId('settings-button'));
  });

  it('returns to the settings button when Esc closes the settings', () => {
    usePanel.setState({ settings, view: 'settings' });
    renderApp();
    screen.getByTestId('theme-select').focus();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(document.activeElement).toBe(screen.getByTestId('settings-button'));
  });

  it('starts at the settings title when the welcome offer’s button opened them', () => {
    usePanel.setState({ settings: { ...settings, missing_key: 'anthropic' }, sessionsLoaded: true });
    renderApp();
    press(screen.getByTestId('open-key-settings'));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Settings' }));
  });

  it('returns to the sessions button when opening a session closes the list', async () => {
    usePanel.setState({ sessions: [session], sessionsLoaded: true, sessionsOpen: true });
    renderApp({ openSession: async () => usePanel.getState().setSessionsOpen(false) });
    await act(async () => press(screen.getByTestId('session-open')));
    expect(document.activeElement).toBe(screen.getByTestId('sessions-button'));
  });

  it('moves to the confirmation when ✕ asks for it, and back to ✕ on Keep', () => {
    usePanel.setState({ sessions: [session], sessionsLoaded: true, sessionsOpen: true });
    renderApp();
    press(screen.getByTestId('session-delete'));
    expect(document.activeElement).toBe(screen.getByTestId('session-delete-confirm'));
    press(screen.getByRole('button', { name: 'Keep' }));
    expect(document.activeElement).toBe(screen.getByTestId('session-delete'));
  });

  it('goes to New session when the session whose Delete it was on is deleted', async () => {
    usePanel.setState({ sessions: [session], sessionsLoaded: true, sessionsOpen: true });
    renderApp({ deleteSession: async () => usePanel.getState().setSessions([]) });
    press(screen.getByTestId('session-delete'));
    await act(async () => press(screen.getByTestId('session-delete-confirm')));
    expect(document.activeElement).toBe(screen.getByTestId('session-new'));
  });

  it('stays in the card’s header when the call the person stopped there ends', () => {
    const running: ToolCallView = {
      call_id: 'c1',
      name: 'exec',
      args: { command: 'sleep 60' },
      echo_kind: 'exec',
      state: 'running',
      is_error: false,
      approvals: [],
      nested: [],
    };
    const value = actions({ cancel: async () => true });
    const view = render(
      <ActionsContext.Provider value={value}>
        <CardFrame call={running} />
      </ActionsContext.Provider>,
    );
    press(screen.getByTestId('card-stop'));
    view.rerender(
      <ActionsContext.Provider value={value}>
        <CardFrame
          call={{
            ...running,
            state: 'error',
            is_error: true,
            echo: { kind: 'text', text: 'Cancelled' },
            execution_time: 40,
          }}
        />
      </ActionsContext.Provider>,
    );
    expect(document.activeElement).toBe(screen.getByTestId('full-content-button'));
  });

  it('returns to the message box when the turn the person stopped ends', () => {
    usePanel.setState({ transcript: { ...emptyTranscript(), activeTurnId: 't1' } });
    render(
      <ActionsContext.Provider value={actions()}>
        <Composer />
      </ActionsContext.Provider>,
    );
    press(screen.getByTestId('composer-stop'));
    act(() => usePanel.setState({ transcript: emptyTranscript() }));
    expect(document.activeElement).toBe(screen.getByTestId('composer-input'));
  });

  it('returns to the message box when the person answered the approval, never to the answer’s text', async () => {
    const request = { title: 'Run a command in the workspace', detail: 'make', scope: 'exec' };
    const asked: ToolCallView = {
      call_id: 'c-answered',
      name: 'exec',
      args: { command: 'make' },
      state: 'running',
      is_error: false,
      approvals: [{ call_id: 'c-answered', name: 'exec', request }],
      nested: [],
    };
    const value = actions({ approve: async () => true });
    const panel = (call: ToolCallView) => (
      <ActionsContext.Provider value={value}>
        <Composer />
        <CardFrame call={call} />
      </ActionsContext.Provider>
    );
    const view = render(panel(asked));
    await act(async () => press(screen.getByTestId('approve-once')));
    view.rerender(panel({ ...asked, approvals: [{ call_id: 'c-answered', name: 'exec', request, answer: 'once' }] }));
    expect(document.activeElement).toBe(screen.getByTestId('composer-input'));
  });

  it('leaves the focus on a button of an approval that already has it when the approval takes focus', () => {
    const request = { title: 'Run a command in the workspace', detail: 'make', scope: 'exec' };
    const call: ToolCallView = {
      call_id: 'c-tabbed',
      name: 'exec',
      args: { command: 'make' },
      state: 'running',
      is_error: false,
      approvals: [{ call_id: 'c-tabbed', name: 'exec', request }],
      nested: [],
    };
    const value = actions();
    // The button takes the focus between the approval's rendering and its effect, as a quick
    // keyboard (or a script driving one) can.
    function FocusFirst() {
      return (
        <div
          ref={(node) => {
            node?.parentElement?.querySelector<HTMLElement>('[data-testid="approve-once"]')?.focus();
          }}
        />
      );
    }
    render(
      <ActionsContext.Provider value={value}>
        <Composer />
        <CardFrame call={call} />
        <FocusFirst />
      </ActionsContext.Provider>,
    );
    expect(document.activeElement).toBe(screen.getByTestId('approve-once'));
  });
});
