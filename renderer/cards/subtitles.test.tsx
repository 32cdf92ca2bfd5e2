// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { parentFolder } from './subtitle-paths.ts';
import { ToolCard } from './ToolCard.tsx';

// Subtitles are basenames; two cards with the same basename for different files show their parent
// folders, dimmed, and the full path as tooltip.

afterEach(() => {
  cleanup();
  usePanel.getState().clearTranscript();
});

const noActions = new Proxy({} as PanelActions, { get: () => async () => undefined });

function read(callId: string, path: string): StatusEvent {
  const subtitle = path.slice(path.lastIndexOf('/') + 1);
  return {
    type: 'tool_started',
    call_id: callId,
    name: 'read_file',
    args: { path },
    description: { title: `Read ${path}`, subtitle, path },
    echo_kind: 'read-file',
  };
}

function subtitleOf(callId: string) {
  const card = screen.getAllByTestId('tool-card').find((element) => element.dataset.callId === callId);
  if (!card) throw new Error(`no card ${callId}`);
  return within(card).getByTestId('card-subtitle');
}

function renderCalls(events: StatusEvent[]) {
  usePanel.getState().applyEvents(events);
  const ids = events.map((event) => ('call_id' in event ? event.call_id : ''));
  render(
    <ActionsContext.Provider value={noActions}>
      {ids.map((id) => (
        <ToolCard key={id} callId={id} />
      ))}
    </ActionsContext.Provider>,
  );
}

describe('card subtitles', () => {
  it('two cards with the same basename show their parent folders, dimmed, with the path as tooltip', () => {
    renderCalls([read('c1', 'src/client/index.ts'), read('c2', 'src/server/index.ts'), read('c3', 'README.md')]);
    expect(subtitleOf('c1').textContent).toBe('index.ts src/client/');
    expect(subtitleOf('c1').getAttribute('title')).toBe('src/client/index.ts');
    expect(subtitleOf('c2').textContent).toBe('index.ts src/server/');
    expect(within(subtitleOf('c3')).queryByTestId('card-subtitle-folder')).toBeNull();
    expect(subtitleOf('c3').textContent).toBe('README.md');
  });

  it('the same file read twice keeps its bare basename', () => {
    renderCalls([read('c1', 'src/app.ts'), read('c2', 'src/app.ts')]);
    expect(subtitleOf('c1').textContent).toBe('app.ts');
    expect(subtitleOf('c2').textContent).toBe('app.ts');
  });

  it('a file at the top of the workspace shows ./ beside its basename', () => {
    renderCalls([read('c1', 'index.ts'), read('c2', 'lib/index.ts')]);
    expect(subtitleOf('c1').textContent).toBe('index.ts ./');
    expect(subtitleOf('c2').textContent).toBe('index.ts lib/');
  });

  it('parent folders understand both separators', () => {
    expect(parentFolder('a/b/c.ts')).toBe('a/b');
    expect(parentFolder('a\\b\\c.ts')).toBe('a\\b');
    expect(parentFolder('c.ts')).toBe('');
  });
});
