// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PreviewProgress } from '../../protocol/sandbox.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { CommandPreview, previewProgressText } from './CommandPreview.tsx';

// A running preview says what it is doing and how far the copy has gone, from the call's
// `tool_progress` events, until its answer comes.

afterEach(() => {
  cleanup();
  usePanel.getState().clearTranscript();
});

const progress = (update: PreviewProgress) =>
  usePanel.getState().applyEvents([
    {
      type: 'tool_progress',
      call_id: 'c1',
      progress: { text: '', cut_bytes: 0, total_bytes: 0, preview: update },
    },
  ]);

describe('a running preview', () => {
  it('names each phase in words, with the counts it knows', () => {
    expect(previewProgressText(undefined)).toBe('Previewing…');
    expect(previewProgressText({ phase: 'listing', done: 12345, total: 0 })).toBe(
      'Listing the workspace… 12,345 entries',
    );
    expect(previewProgressText({ phase: 'copying', done: 1200, total: 10000 })).toBe(
      'Copying the workspace… 1,200 of 10,000 entries',
    );
    expect(previewProgressText({ phase: 'running', done: 0, total: 0 })).toBe(
      'Running the command over the copy, in the sandbox…',
    );
    expect(previewProgressText({ phase: 'comparing', done: 5, total: 9 })).toBe(
      'Comparing the copy with the workspace… 5 of 9 entries',
    );
  });

  it('shows the copy as it goes, then the preview once it has come', async () => {
    usePanel.getState().applyEvents([{ type: 'tool_started', call_id: 'c1', name: 'exec', args: { command: 'x' } }]);
    let answer: (value: Awaited<ReturnType<PanelActions['previewCall']>>) => void = () => undefined;
    const actions = {
      previewCall: () => new Promise((resolve) => (answer = resolve)),
      keepPreview: async () => true,
    } as unknown as PanelActions;
    render(
      <ActionsContext.Provider value={actions}>
        <CommandPreview callId="c1" locked={false} onRun={() => undefined} />
      </ActionsContext.Provider>,
    );
    fireEvent.click(screen.getByTestId('preview-command'));
    expect(screen.getByTestId('preview-progress').textContent).toBe('Previewing…');
    act(() => progress({ phase: 'copying', done: 300, total: 1000 }));
    const shown = screen.getByTestId('preview-progress');
    expect(shown.textContent).toBe('Copying the workspace… 300 of 1,000 entries');
    expect(shown.querySelector('progress')?.getAttribute('value')).toBe('300');
    await act(async () =>
      answer({
        ok: true,
        value: { command: 'x', exit_code: 0, status: 'exited', output: '', files: [], caveat: null },
      }),
    );
    expect(screen.queryByTestId('preview-progress')).toBeNull();
    expect(screen.getByTestId('preview-summary').textContent).toContain('no files would change');
  });
});
