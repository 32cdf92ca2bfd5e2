// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { ToolCard } from './ToolCard.tsx';

// A Code Mode card's trace names each nested call by its own description; raw arguments are the
// tooltip, and the line a call without a description (an older session) still shows.

afterEach(() => {
  cleanup();
  usePanel.getState().clearTranscript();
});

const noActions = new Proxy({} as PanelActions, { get: () => async () => undefined });

function dispatch(callId: string, withDescription: boolean): StatusEvent {
  return {
    type: 'tool_code_dispatch',
    parent_call_id: 'p1',
    call_id: callId,
    name: 'read_file',
    args: { path: 'src/notes.md' },
    content: 'hello',
    echo: { kind: 'text', text: 'hello' },
    is_error: false,
    execution_time: 3,
    ...(withDescription
      ? { description: { title: 'Read src/notes.md', subtitle: 'notes.md', path: 'src/notes.md' } }
      : {}),
  };
}

describe('the Code Mode trace', () => {
  it("shows a nested call's description instead of its raw arguments", () => {
    usePanel.getState().applyEvents([
      {
        type: 'tool_started',
        call_id: 'p1',
        name: 'run_code',
        args: { code: '// Read the notes' },
        description: {
          title: 'Run a program that calls tools',
          subtitle: 'Read the notes',
          detail: '// Read the notes',
        },
        echo_kind: 'code',
      },
      dispatch('n1', true),
      dispatch('n2', false),
    ]);
    render(
      <ActionsContext.Provider value={noActions}>
        <ToolCard callId="p1" />
      </ActionsContext.Provider>,
    );
    expect(screen.getByTestId('card-subtitle').textContent).toBe('Read the notes');
    const [described, older] = screen.getAllByTestId('code-trace-entry');
    const describedArgs = described?.querySelector('.trace-args');
    expect(describedArgs?.textContent).toBe('Read src/notes.md');
    expect(describedArgs?.getAttribute('title')).toContain('src/notes.md');
    expect(older?.querySelector('.trace-args')?.textContent).toContain('src/notes.md');
    expect(older?.querySelector('.trace-args')?.textContent).not.toContain('Read ');
  });

  it("keeps a nested command's command line beside its generic title", () => {
    usePanel.getState().applyEvents([
      {
        type: 'tool_started',
        call_id: 'p1',
        name: 'run_code',
        args: { code: 'await tools.exec({ command: "echo hi" })' },
        echo_kind: 'code',
      },
      {
        type: 'tool_code_dispatch',
        parent_call_id: 'p1',
        call_id: 'n1',
        name: 'exec',
        args: { command: 'echo hi' },
        content: 'hi',
        echo: { kind: 'text', text: 'hi' },
        is_error: false,
        execution_time: 3,
        description: { title: 'Run a command', subtitle: 'echo hi', detail: 'echo hi' },
      },
    ]);
    render(
      <ActionsContext.Provider value={noActions}>
        <ToolCard callId="p1" />
      </ActionsContext.Provider>,
    );
    const [entry] = screen.getAllByTestId('code-trace-entry');
    expect(entry?.querySelector('.trace-args')?.textContent).toBe('Run a command · echo hi');
  });
});
