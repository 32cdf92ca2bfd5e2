// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { reduceStatusEvents } from '../store/transcript-reducer.ts';
import { emptyTranscript } from '../store/transcript-types.ts';
import { transcriptMarkdown } from './markdown.ts';
import { Markdown } from './Markdown.tsx';

afterEach(cleanup);

const noActions = new Proxy({} as PanelActions, {
  get: () => async () => undefined,
});

function renderMarkdown(text: string) {
  return render(
    <ActionsContext.Provider value={noActions}>
      <Markdown text={text} />
    </ActionsContext.Provider>,
  ).container;
}

describe('assistant Markdown', () => {
  it('renders GFM: emphasis, tables and code', () => {
    const container = renderMarkdown('Some **bold**\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst x = 1;\n```');
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelectorAll('td')).toHaveLength(2);
    expect(container.querySelector('pre code')?.textContent).toBe('const x = 1;');
  });

  it('shows raw HTML as text and never creates the elements', () => {
    const container = renderMarkdown('Before <img src=x onerror="alert(1)"> and <script>alert(2)</script> after');
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
  });

  it('keeps images as text, so a message cannot make the panel fetch anything', () => {
    const container = renderMarkdown('![diagram](https://example.com/d.png)');
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toContain('[image: diagram — https://example.com/d.png]');
  });
});

describe('copy transcript', () => {
  it('writes the conversation and each card as Markdown', () => {
    const events: StatusEvent[] = [
      { type: 'user_message', turn_id: 't1', text: 'Read a.ts' },
      { type: 'assistant_message', turn_id: 't1', text: 'Reading it.', tool_calls: [] },
      {
        type: 'tool_started',
        call_id: 'c1',
        name: 'list_dir',
        args: { path: 'x/notes' },
        description: { title: 'List x/notes', subtitle: 'notes', path: 'x/notes' },
        echo_kind: 'text',
      },
      {
        type: 'tool_completed',
        call_id: 'c1',
        name: 'list_dir',
        execution_time: 3,
        is_error: false,
        result: { kind: 'text', text: '' },
      },
      {
        type: 'tool_started',
        call_id: 'c2',
        name: 'search_files',
        args: { pattern: 'TODO' },
        description: { title: 'Search the workspace', subtitle: 'TODO' },
        echo_kind: 'text',
      },
      {
        type: 'tool_completed',
        call_id: 'c2',
        name: 'search_files',
        execution_time: 5,
        is_error: false,
        result: { kind: 'text', text: 'a.ts:1: ```TODO```' },
      },
    ];
    expect(transcriptMarkdown(reduceStatusEvents(emptyTranscript(), events))).toBe(
      [
        '## You\n\nRead a.ts',
        'Reading it.',
        '**list_dir** `notes` (3 ms) — ✓ ok',
        '**search_files** `TODO` (5 ms)\n\n````\na.ts:1: ```TODO```\n````',
      ].join('\n\n') + '\n',
    );
  });
});
