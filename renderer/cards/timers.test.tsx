// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import type { ToolCallView } from '../store/transcript-types.ts';
import { MessageRow } from '../transcript/Messages.tsx';
import { formatElapsed } from './Elapsed.tsx';
import { CardFrame } from './ToolCard.tsx';

// What is happening now: running cards and turns tick, a finished turn says how long it took, and a
// card waiting for approval offers no Stop.

afterEach(() => {
  cleanup();
  usePanel.getState().clearTranscript();
});

const noActions = new Proxy({} as PanelActions, { get: () => async () => undefined });

function renderCard(call: ToolCallView) {
  render(
    <ActionsContext.Provider value={noActions}>
      <CardFrame call={call} />
    </ActionsContext.Provider>,
  );
  return screen.getByTestId('tool-card');
}

const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

function execCall(overrides: Partial<ToolCallView>): ToolCallView {
  return {
    call_id: 'c1',
    name: 'exec',
    args: { command: 'npm test' },
    echo_kind: 'exec',
    state: 'running',
    is_error: false,
    approvals: [],
    nested: [],
    ...overrides,
  };
}

describe('elapsed timers', () => {
  it('reads as a clock: whole seconds, then minutes and seconds', () => {
    expect(formatElapsed(0.4)).toBe('0 s');
    expect(formatElapsed(42.9)).toBe('42 s');
    expect(formatElapsed(65)).toBe('1m 05s');
  });

  it('a running card shows how long it has been running', () => {
    const card = renderCard(execCall({ started_at: secondsAgo(65) }));
    expect(within(card).getByTestId('card-elapsed').textContent).toMatch(/^1m 0[56]s$/);
  });

  it('a finished card shows its duration, not a timer', () => {
    const card = renderCard(
      execCall({ state: 'done', started_at: secondsAgo(65), execution_time: 1500, echo: { kind: 'text', text: '' } }),
    );
    expect(within(card).queryByTestId('card-elapsed')).toBeNull();
    expect(within(card).getByTestId('card-time').textContent).toBe('1.5 s');
  });
});

describe('a command waiting for approval', () => {
  const request = { title: 'Run a command in the workspace', detail: 'npm test', scope: 'exec' };

  it('shows "needs approval" only: no Stop and no timer until it runs', () => {
    const card = renderCard(
      execCall({ started_at: secondsAgo(5), approvals: [{ call_id: 'c1', name: 'exec', request }] }),
    );
    expect(within(card).getByText('needs approval')).toBeTruthy();
    expect(within(card).queryByTestId('card-stop')).toBeNull();
    expect(within(card).queryByTestId('card-elapsed')).toBeNull();
  });

  it('gets its Stop once approved', () => {
    const card = renderCard(
      execCall({ started_at: secondsAgo(5), approvals: [{ call_id: 'c1', name: 'exec', request, answer: 'once' }] }),
    );
    expect(within(card).getByTestId('card-stop')).toBeTruthy();
  });
});

describe('the {…} button', () => {
  it('is labelled with what it opens', () => {
    const card = renderCard(execCall({ state: 'done', echo: { kind: 'text', text: 'ok' } }));
    const button = within(card).getByTestId('full-content-button');
    expect(button.textContent).toContain('What the model received');
    expect(button.getAttribute('aria-label')).toBe('Show what the model received');
  });
});

describe("a turn's row", () => {
  const started: StatusEvent[] = [
    { type: 'user_message', turn_id: 't1', text: 'Run the tests' },
    { type: 'turn_started', turn_id: 't1', model: 'demo', at: secondsAgo(3) },
  ];

  function renderTurn(events: StatusEvent[]) {
    usePanel.getState().applyEvents(events);
    render(<MessageRow id="user:t1" />);
  }

  it('shows an elapsed timer while the turn runs', () => {
    renderTurn(started);
    expect(screen.getByTestId('turn-meta').textContent).toMatch(/^Running [34] s$/);
  });

  it('shows its duration and tokens when done', () => {
    renderTurn([
      { type: 'user_message', turn_id: 't1', text: 'Run the tests' },
      { type: 'turn_started', turn_id: 't1', model: 'demo', at: '2026-01-01T10:00:00.000Z' },
      {
        type: 'turn_completed',
        turn_id: 't1',
        usage: { input_tokens: 12345, output_tokens: 678 },
        stop_reason: 'end_turn',
        at: '2026-01-01T10:00:04.200Z',
      },
    ]);
    expect(screen.getByTestId('turn-meta').textContent).toBe('Took 4.2 s · 12,345 tokens in, 678 out');
  });

  it('sits under the message, not inside its bubble, with Rewind at its end', () => {
    renderTurn(started);
    const bubble = screen.getByTestId('message-user');
    expect(bubble.contains(screen.getByTestId('turn-meta'))).toBe(false);
    expect(bubble.contains(screen.getByTestId('rewind-button'))).toBe(false);
    expect(bubble.textContent).toBe('YouRun the tests');
  });

  it('says how long a stopped turn ran', () => {
    renderTurn([
      ...started.slice(0, 1),
      { type: 'turn_started', turn_id: 't1', model: 'demo', at: '2026-01-01T10:00:00.000Z' },
      { type: 'turn_failed', turn_id: 't1', error: 'Stopped', aborted: true, at: '2026-01-01T10:01:05.000Z' },
    ]);
    expect(screen.getByTestId('turn-meta').textContent).toBe('Stopped after 1m 05s');
  });
});
