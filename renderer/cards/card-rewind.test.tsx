// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { ToolCard } from './ToolCard.tsx';

// Rewind is offered on the cards of calls that may change the workspace (those a checkpoint is
// taken before), not on reads, listings and searches, which have nothing to rewind.

afterEach(() => {
  cleanup();
  usePanel.getState().clearTranscript();
});

const noActions = new Proxy({} as PanelActions, { get: () => async () => undefined });

function card(callId: string, events: StatusEvent[]) {
  usePanel.getState().applyEvents(events);
  render(
    <ActionsContext.Provider value={noActions}>
      <ToolCard callId={callId} />
    </ActionsContext.Provider>,
  );
  return screen.getAllByTestId('tool-card').find((element) => element.dataset.callId === callId)!;
}

describe('Rewind on a card', () => {
  it('is not offered on a read', () => {
    const read = card('r1', [
      { type: 'tool_started', call_id: 'r1', name: 'read_file', args: { path: 'a.ts' }, echo_kind: 'read-file' },
      {
        type: 'tool_completed',
        call_id: 'r1',
        name: 'read_file',
        execution_time: 2,
        is_error: false,
        result: {
          kind: 'read-file',
          path: 'a.ts',
          range: { start: 1, end: 1 },
          total_lines: 1,
          content: 'a\n',
          truncated: false,
        },
      },
    ]);
    expect(within(read).queryByTestId('rewind-button')).toBeNull();
  });

  it('is offered on a call a checkpoint was taken before, and on one whose checkpoints were off', () => {
    const write = card('w1', [
      { type: 'tool_started', call_id: 'w1', name: 'exec', args: { command: 'touch a' }, echo_kind: 'exec' },
      {
        type: 'tool_completed',
        call_id: 'w1',
        name: 'exec',
        execution_time: 2,
        is_error: false,
        result: { kind: 'text', text: '' },
        checkpoint: { id: 'cp1' },
      },
    ]);
    expect(within(write).getByTestId('rewind-button').dataset['code']).toBe('available');
    const off = card('w2', [
      { type: 'tool_started', call_id: 'w2', name: 'exec', args: { command: 'touch b' }, echo_kind: 'exec' },
      {
        type: 'tool_completed',
        call_id: 'w2',
        name: 'exec',
        execution_time: 2,
        is_error: false,
        result: { kind: 'text', text: '' },
        checkpoint: { id: '', off: true },
      },
    ]);
    expect(within(off).getByTestId('rewind-button').dataset['code']).toBe('unavailable');
  });
});
