// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SendKey, Settings } from '../protocol/api.ts';
import type { ApprovalAnswer } from '../protocol/events.ts';
import { ActionsContext, type PanelActions } from './actions.ts';
import { App } from './app.tsx';
import { CardFrame } from './cards/ToolCard.tsx';
import { Composer } from './composer/Composer.tsx';
import { usePanel } from './store/store.ts';
import { emptyTranscript, type ToolCallView } from './store/transcript-types.ts';

// The panel from the keyboard: where focus starts, how the message box's keys behave, and how an
// approval is answered with 1 / 2 / 3 and gives focus back to writing.

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
  });
});

const settings = (send_key: SendKey = 'enter'): Settings => ({
  model: 'claude-x',
  effort: 'medium',
  permission_mode: 'ask',
  theme: 'system',
  send_key,
  keys: { anthropic: true, openai: false },
  missing_key: null,
  updates_enabled: false,
});

interface Calls {
  sent: string[];
  efforts: number;
  modes: number;
  answers: [string, ApprovalAnswer][];
  stops: number;
}

/** Actions that do nothing but what `overrides` says. */
function actionsWith(overrides: Partial<PanelActions>): PanelActions {
  // No MCP server asks for a form here.
  const quiet: Partial<PanelActions> = {
    mcpForms: async () => ({ ok: true, value: [] }),
    onMcpForms: () => () => undefined,
  };
  return new Proxy({ ...quiet, ...overrides } as PanelActions, {
    get: (target, key: string) => target[key as keyof PanelActions] ?? (async () => undefined),
  });
}

function recordingActions(): { value: PanelActions; calls: Calls } {
  const calls: Calls = { sent: [], efforts: 0, modes: 0, answers: [], stops: 0 };
  const overrides: Partial<PanelActions> = {
    send: async (text) => (calls.sent.push(text), true),
    // As the real actions do: the settings the host answers with are the store's.
    cycleEffort: async () => {
      calls.efforts += 1;
      const now = usePanel.getState().settings!;
      usePanel.getState().setSettings({ ...now, effort: now.effort === 'medium' ? 'high' : 'medium' });
    },
    cyclePermissionMode: async () => {
      calls.modes += 1;
      const now = usePanel.getState().settings!;
      usePanel.getState().setSettings({ ...now, permission_mode: now.permission_mode === 'ask' ? 'plan' : 'ask' });
    },
    approve: async (callId, answer) => (calls.answers.push([callId, answer]), true),
    stop: async () => void (calls.stops += 1),
  };
  return { value: actionsWith(overrides), calls };
}

function renderComposer(sendKey: SendKey = 'enter') {
  usePanel.setState({ settings: settings(sendKey) });
  const { value, calls } = recordingActions();
  render(
    <ActionsContext.Provider value={value}>
      <Composer />
    </ActionsContext.Provider>,
  );
  return { calls, input: screen.getByTestId('composer-input') as HTMLTextAreaElement };
}

/** Types `text` and presses `key`; whether the key's default action (new line, focus move) was kept. */
async function typeAndPress(input: HTMLTextAreaElement, text: string, key: string, modifiers = {}): Promise<boolean> {
  fireEvent.change(input, { target: { value: text } });
  let kept = true;
  await act(async () => {
    kept = fireEvent.keyDown(input, { key, ...modifiers });
  });
  return kept;
}

function asking(callId: string): ToolCallView {
  const request = {
    title: 'Run a command in the workspace',
    detail: 'make',
    scope: 'exec',
    always_rules: ['exec(make)'],
  };
  return {
    call_id: callId,
    name: 'exec',
    args: { command: 'make' },
    echo_kind: 'exec',
    state: 'running',
    is_error: false,
    approvals: [{ call_id: callId, name: 'exec', request }],
    nested: [],
  };
}

describe('keyboard', () => {
  it('starts with focus in the message box', () => {
    usePanel.setState({ settings: settings() });
    render(
      <ActionsContext.Provider value={recordingActions().value}>
        <App />
      </ActionsContext.Provider>,
    );
    expect(document.activeElement).toBe(screen.getByTestId('composer-input'));
  });

  it('sends on Enter and keeps Shift+Enter for a new line by default', async () => {
    const { calls, input } = renderComposer();
    expect(await typeAndPress(input, 'line one', 'Enter', { shiftKey: true })).toBe(true);
    expect(calls.sent).toEqual([]);
    expect(await typeAndPress(input, 'Fix the build', 'Enter')).toBe(false);
    expect(calls.sent).toEqual(['Fix the build']);
    expect(screen.getByTestId('composer-keys').textContent).toContain('Enter send · Shift+Enter new line');
  });

  it('sends on Ctrl+Enter only when the setting says so, and the hint says which', async () => {
    const { calls, input } = renderComposer('ctrl-enter');
    expect(await typeAndPress(input, 'Fix the build', 'Enter')).toBe(true);
    expect(calls.sent).toEqual([]);
    await typeAndPress(input, 'Fix the build', 'Enter', { ctrlKey: true });
    expect(calls.sent).toEqual(['Fix the build']);
    expect(screen.getByTestId('composer-keys').textContent).toMatch(/^(Ctrl|Cmd)\+Enter send · Enter new line/);
  });

  it('cycles the permission mode on Shift+Tab in the empty box, lets Shift+Tab move focus when there is text, and says the new mode', async () => {
    const { calls, input } = renderComposer();
    expect(await typeAndPress(input, '', 'Tab', { shiftKey: true })).toBe(false);
    expect(calls.modes).toBe(1);
    expect(calls.efforts).toBe(0);
    expect(screen.getByTestId('mode-button').textContent).toContain('plan');
    const said = screen.getByTestId('composer-said');
    expect(said.getAttribute('role')).toBe('status');
    expect(said.textContent).toMatch(/^Permission mode: plan\. Plan: read and search/);
    expect(await typeAndPress(input, 'half a thought', 'Tab', { shiftKey: true })).toBe(true);
    expect(calls.modes).toBe(1);
    expect(screen.getByTestId('composer-keys').textContent).toContain('Shift+Tab mode (empty box) · Alt+T effort');
  });

  it('cycles the effort on Alt+T, with text in the box too, and says the new effort', async () => {
    const { calls, input } = renderComposer();
    expect(await typeAndPress(input, 'half a thought', 't', { altKey: true, code: 'KeyT' })).toBe(false);
    expect(calls.efforts).toBe(1);
    expect(calls.modes).toBe(0);
    expect(input.value).toBe('half a thought');
    expect(screen.getByTestId('effort-button').textContent).toContain('high');
    expect(screen.getByTestId('composer-said').textContent).toBe('Reasoning effort: high.');
  });

  it('recalls with ↑ pressed before the host has answered with the history, once it has', async () => {
    usePanel.setState({ settings: settings(), workspace: '/w' });
    let answer: (prompts: string[]) => void = () => undefined;
    const remembered: string[] = [];
    const actions = actionsWith({
      promptHistory: () => new Promise<string[] | null>((resolve) => (answer = resolve)),
      rememberPrompt: async (text) => (remembered.push(text), [...remembered]),
    });
    render(
      <ActionsContext.Provider value={actions}>
        <Composer />
      </ActionsContext.Provider>,
    );
    const input = screen.getByTestId('composer-input') as HTMLTextAreaElement;
    expect(await typeAndPress(input, '', 'ArrowUp')).toBe(false);
    expect(input.value).toBe('');
    await act(async () => answer(['older prompt', 'newest prompt']));
    expect(input.value).toBe('newest prompt');
    expect(await typeAndPress(input, 'newest prompt', 'ArrowUp')).toBe(false);
    expect(input.value).toBe('older prompt');
  });

  it('sends a message written while the last is still on its way after it, instead of ignoring it', async () => {
    usePanel.setState({ settings: settings() });
    const sent: string[] = [];
    let release: () => void = () => undefined;
    const actions = actionsWith({
      send: (text) => {
        sent.push(text);
        // The first send waits until the test lets it through; the next ones answer at once.
        return sent.length === 1
          ? new Promise<boolean>((resolve) => (release = () => resolve(true)))
          : Promise.resolve(true);
      },
    });
    render(
      <ActionsContext.Provider value={actions}>
        <Composer />
      </ActionsContext.Provider>,
    );
    const input = screen.getByTestId('composer-input') as HTMLTextAreaElement;
    await typeAndPress(input, 'first', 'Enter');
    expect(input.value).toBe('');
    expect(await typeAndPress(input, 'second', 'Enter')).toBe(false);
    expect(input.value).toBe('');
    expect(sent).toEqual(['first']);
    await act(async () => release());
    expect(sent).toEqual(['first', 'second']);
  });

  it('says the new mode when the mode button is pressed too', async () => {
    const { calls } = renderComposer();
    await act(async () => void fireEvent.click(screen.getByTestId('mode-button')));
    expect(calls.modes).toBe(1);
    expect(screen.getByTestId('composer-said').textContent).toMatch(/^Permission mode: plan\./);
  });

  it('puts the caret after a completed command at once, so keys typed right after it stay in order', async () => {
    Element.prototype.scrollIntoView ??= () => undefined; // jsdom lays nothing out
    usePanel.setState({ settings: settings() });
    render(
      <ActionsContext.Provider value={actionsWith({ userCommands: async () => ({ commands: [], problems: [] }) })}>
        <Composer />
      </ActionsContext.Provider>,
    );
    const input = screen.getByTestId('composer-input') as HTMLTextAreaElement;
    input.focus();
    fireEvent.change(input, { target: { value: '/comp', selectionStart: 5, selectionEnd: 5 } });
    await act(async () => void fireEvent.keyDown(input, { key: 'Tab' }));
    expect(input.value).toBe('/compact ');
    expect(input.selectionStart).toBe('/compact '.length);
    // Typed before the next frame: a caret placed a frame late would jump back over these letters.
    input.setRangeText('th', input.selectionStart, input.selectionEnd, 'end');
    fireEvent.change(input, { target: { value: input.value } });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(input.value).toBe('/compact th');
    expect(input.selectionStart).toBe('/compact th'.length);
  });

  it('gives a new approval the focus, and 1 / 2 / 3 answer it once / always / deny', async () => {
    for (const [key, answer] of [
      ['1', 'once'],
      ['2', 'session'],
      ['3', 'deny'],
    ] as const) {
      const { value, calls } = recordingActions();
      const callId = `keys-${key}`;
      render(
        <ActionsContext.Provider value={value}>
          <CardFrame call={asking(callId)} />
        </ActionsContext.Provider>,
      );
      const question = screen.getByTestId('approval');
      expect(document.activeElement).toBe(question);
      await act(async () => void fireEvent.keyDown(question, { key }));
      expect(calls.answers).toEqual([[callId, answer]]);
      cleanup();
    }
  });

  it('announces a new approval to screen readers', () => {
    render(
      <ActionsContext.Provider value={recordingActions().value}>
        <CardFrame call={asking('announced')} />
      </ActionsContext.Provider>,
    );
    expect(screen.getByRole('alert').textContent).toBe('Approval needed: Run a command in the workspace');
  });

  it('leaves the focus in the message box when the person is writing as an approval arrives', () => {
    usePanel.setState({ settings: settings() });
    const { value } = recordingActions();
    const panel = (calls: ToolCallView[]) => (
      <ActionsContext.Provider value={value}>
        <Composer />
        {calls.map((call) => (
          <CardFrame key={call.call_id} call={call} />
        ))}
      </ActionsContext.Provider>
    );
    const view = render(panel([]));
    const input = screen.getByTestId('composer-input') as HTMLTextAreaElement;
    input.focus();
    fireEvent.change(input, { target: { value: 'and then 123' } });
    view.rerender(panel([asking('while-writing')]));
    expect(document.activeElement).toBe(input);
  });

  it('gives the focus to an approval that arrives before the sent message’s request has answered', async () => {
    usePanel.setState({ settings: settings() });
    let answer: (sent: boolean) => void = () => undefined;
    const value = actionsWith({ send: () => new Promise<boolean>((resolve) => (answer = resolve)) });
    const panel = (calls: ToolCallView[]) => (
      <ActionsContext.Provider value={value}>
        <Composer />
        {calls.map((call) => (
          <CardFrame key={call.call_id} call={call} />
        ))}
      </ActionsContext.Provider>
    );
    const view = render(panel([]));
    const input = screen.getByTestId('composer-input') as HTMLTextAreaElement;
    await typeAndPress(input, 'Make a file', 'Enter');
    view.rerender(panel([asking('before-answer')]));
    expect(document.activeElement).toBe(screen.getByTestId('approval'));
    await act(async () => answer(true));
    expect(input.value).toBe('');
  });

  it('puts a message that could not be sent back in the box', async () => {
    usePanel.setState({ settings: settings() });
    const value = actionsWith({ send: async () => false });
    render(
      <ActionsContext.Provider value={value}>
        <Composer />
      </ActionsContext.Provider>,
    );
    const input = screen.getByTestId('composer-input') as HTMLTextAreaElement;
    await typeAndPress(input, 'Fix the build', 'Enter');
    expect(input.value).toBe('Fix the build');
  });

  it('stops the turn on Esc from an approval and puts focus back in the message box', async () => {
    usePanel.setState({ settings: settings(), transcript: { ...emptyTranscript(), activeTurnId: 't1' } });
    const { value, calls } = recordingActions();
    render(
      <ActionsContext.Provider value={value}>
        <App />
        <CardFrame call={asking('esc')} />
      </ActionsContext.Provider>,
    );
    expect(document.activeElement).toBe(screen.getByTestId('approval'));
    fireEvent.keyDown(screen.getByTestId('approval'), { key: 'Escape' });
    expect(calls.stops).toBe(1);
    expect(document.activeElement).toBe(screen.getByTestId('composer-input'));
  });

  it('moves focus into the session list when it opens, and Esc there closes it and returns to ☰', () => {
    usePanel.setState({ settings: settings(), sessionsLoaded: true });
    render(
      <ActionsContext.Provider value={recordingActions().value}>
        <App />
      </ActionsContext.Provider>,
    );
    const button = screen.getByTestId('sessions-button');
    button.focus();
    fireEvent.click(button);
    expect(document.activeElement).toBe(screen.getByTestId('session-new'));
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(screen.queryByTestId('session-list')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('closes the session list with its ✕ button, focus back on ☰', () => {
    usePanel.setState({ settings: settings(), sessionsLoaded: true, sessionsOpen: true });
    render(
      <ActionsContext.Provider value={recordingActions().value}>
        <App />
      </ActionsContext.Provider>,
    );
    const close = screen.getByTestId('sessions-close');
    close.focus();
    fireEvent.click(close);
    expect(screen.queryByTestId('session-list')).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('sessions-button'));
  });
});
