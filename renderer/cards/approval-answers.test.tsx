// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { ToolCard } from './ToolCard.tsx';

// How an answered question reads on its card: a denial is said once, calmly (the person's choice,
// not a failure), and a question the person stopped (Esc) before answering reads "stopped before
// approval", never "denied".

afterEach(() => {
  cleanup();
  usePanel.getState().clearTranscript();
});

const noActions = new Proxy({} as PanelActions, { get: () => async () => undefined });
const request = { title: 'Run npm test', detail: 'npm test', scope: 'exec' };

function renderAfter(resolved: StatusEvent, reason: string) {
  usePanel.getState().applyEvents([
    { type: 'tool_started', call_id: 'c1', name: 'exec', args: { command: 'npm test' }, echo_kind: 'exec' },
    { type: 'tool_approval_requested', call_id: 'c1', name: 'exec', request },
    resolved,
    {
      type: 'tool_completed',
      call_id: 'c1',
      name: 'exec',
      execution_time: 900,
      is_error: true,
      result: { kind: 'text', text: reason },
    },
  ]);
  render(
    <ActionsContext.Provider value={noActions}>
      <ToolCard callId="c1" />
    </ActionsContext.Provider>,
  );
  return screen.getByTestId('tool-card');
}

describe('answered approvals', () => {
  it('a denied call prints the denial once, as a calm line rather than a failure', () => {
    const card = renderAfter(
      { type: 'tool_approval_resolved', call_id: 'c1', answer: 'deny' },
      'Denied by the user: Run npm test.',
    );
    expect(within(card).getByTestId('approval-answer').textContent).toBe('You denied: Run npm test');
    expect(card.textContent?.match(/denied/gi)).toHaveLength(1);
    expect(within(card).queryByTestId('card-error')).toBeNull();
    expect(card.className).toContain('is-denied');
    expect(card.className).not.toContain('is-error');
    expect(card.querySelector('.glyph-error')).toBeNull();
    expect(card.getAttribute('aria-label')).toBe('exec, denied');
  });

  it('Esc during a pending approval reads "stopped before approval", not "Denied"', () => {
    const card = renderAfter(
      { type: 'tool_approval_resolved', call_id: 'c1', answer: 'deny', stopped: true },
      'Cancelled: stopped while waiting for approval of Run npm test.',
    );
    const answer = within(card).getByTestId('approval-answer');
    expect(answer.textContent).toBe('Stopped before approval: Run npm test');
    expect(answer.getAttribute('data-answer')).toBe('stopped');
    expect(card.textContent).not.toMatch(/denied/i);
  });

  it('a call that failed after it was allowed still shows its error', () => {
    const card = renderAfter(
      { type: 'tool_approval_resolved', call_id: 'c1', answer: 'once' },
      'Command failed to start: npm not found',
    );
    expect(within(card).getByTestId('approval-answer').textContent).toBe('Allowed once: Run npm test');
    expect(within(card).getByTestId('card-error').textContent).toContain('npm not found');
  });
});
