// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StatusEvent, ToolStartedEvent } from '../../protocol/events.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { parentFolder } from './subtitle-paths.ts';
import { ReadGroupCard } from './ReadGroupCard.tsx';
import { ToolCard } from './ToolCard.tsx';

// Subtitles are basenames; two cards with the same basename for different files show their parent
// folders, dimmed, and the full path as tooltip.

afterEach(() => {
  cleanup();
  usePanel.getState().clearTranscript();
  vi.restoreAllMocks();
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
  const ids = events.map((event) => ('call_id' in event ? (event.call_id ?? '') : ''));
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

  it('a read of part of a file says which lines, on its card and in the group that folds it', () => {
    const page = (callId: string, start: number, end: number): StatusEvent[] => [
      {
        ...(read(callId, 'src/data.js') as ToolStartedEvent),
        turn_id: 't1',
        args: { path: 'src/data.js', offset: start, limit: 4 },
      },
      {
        type: 'tool_completed',
        call_id: callId,
        name: 'read_file',
        result: {
          kind: 'read-file',
          path: 'src/data.js',
          range: { start, end },
          total_lines: 10,
          content: 'x\n'.repeat(end - start + 1),
          truncated: end < 10,
        },
        is_error: false,
        execution_time: 1,
      },
    ];
    renderCalls([...page('c1', 1, 4), ...page('c2', 5, 8)].filter((event) => event.type === 'tool_started'));
    usePanel
      .getState()
      .applyEvents([...page('c1', 1, 4), ...page('c2', 5, 8)].filter((event) => event.type !== 'tool_started'));
    expect(subtitleOf('c1').textContent).toBe('data.js lines 1–4');
    expect(subtitleOf('c2').textContent).toBe('data.js lines 5–8');
    cleanup();
    render(
      <ActionsContext.Provider value={noActions}>
        <ReadGroupCard id="c1" ids={['c1', 'c2']} />
      </ActionsContext.Provider>,
    );
    expect(screen.getByTestId('read-group-names').textContent).toBe('data.js lines 1–4, data.js lines 5–8');
    expect(screen.getByTestId('read-group-summary').textContent).toBe('Read 1 file');
  });

  it('a command cut to the header is a button that shows it whole, from the keyboard too', () => {
    // jsdom lays nothing out: the subtitle reports a text wider than itself, as a narrow header does.
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('card-subtitle') ? 900 : 0;
    });
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('card-subtitle') ? 200 : 0;
    });
    const command = 'npm run build -- --mode production && npm test -- --reporter verbose';
    renderCalls([
      {
        type: 'tool_started',
        call_id: 'e1',
        name: 'exec',
        args: { command },
        description: { title: 'Run a command', subtitle: command, detail: command },
        echo_kind: 'exec',
      },
    ]);
    const subtitle = subtitleOf('e1');
    expect(subtitle.tagName).toBe('BUTTON');
    expect(subtitle.textContent).toBe(command);
    expect(subtitle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(subtitle);
    expect(subtitleOf('e1').getAttribute('aria-expanded')).toBe('true');
    expect(subtitleOf('e1').className).toContain('is-open');
    fireEvent.click(subtitleOf('e1'));
    expect(subtitleOf('e1').getAttribute('aria-expanded')).toBe('false');
  });

  it('a command that fits stays plain text, not a control', () => {
    renderCalls([
      {
        type: 'tool_started',
        call_id: 'e1',
        name: 'exec',
        args: { command: 'ls' },
        description: { title: 'Run a command', subtitle: 'ls', detail: 'ls' },
        echo_kind: 'exec',
      },
    ]);
    expect(subtitleOf('e1').tagName).toBe('SPAN');
  });
});
