// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileView } from '../../protocol/files.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { CardFrame } from '../cards/ToolCard.tsx';
import '../cards/registry.ts';
import type { ToolCallView } from '../store/transcript-types.ts';
import { Markdown } from '../transcript/Markdown.tsx';
import { LinkedText } from './FileLink.tsx';
import { FileViewer } from './FileViewer.tsx';

// Paths in answers and tool text are links only to files the panel host says exist; a link opens
// the file (through openFile); the viewer shows the page at the line and gives the focus back.

afterEach(() => {
  cleanup();
  usePanel.getState().closeFileViewer();
});

const FILES = new Set(['src/app.ts', 'README.md']);

function actionsFor(overrides: Partial<PanelActions> = {}) {
  const asked: string[][] = [];
  const opened: [string, number | undefined][] = [];
  const base: Partial<PanelActions> = {
    existingFiles: async (paths) => {
      asked.push(paths);
      return paths.filter((path) => FILES.has(path));
    },
    openFile: async (path, line) => void opened.push([path, line]),
    ...overrides,
  };
  const actions = new Proxy(base, {
    get: (target, key: string) => target[key as keyof PanelActions] ?? (async () => undefined),
  }) as PanelActions;
  return { actions, asked, opened };
}

async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe('file links in an answer', () => {
  it('link the paths of existing files, with their line, and leave the others as text', async () => {
    const { actions, asked } = actionsFor();
    render(
      <ActionsContext.Provider value={actions}>
        <Markdown text={'Fixed in src/app.ts:12 and `README.md`; see also src/gone.ts.'} />
      </ActionsContext.Provider>,
    );
    await settle();
    const links = screen.getAllByTestId('file-link');
    expect(links.map((link) => [link.textContent, link.dataset['path'], link.dataset['line']])).toEqual([
      ['src/app.ts:12', 'src/app.ts', '12'],
      ['README.md', 'README.md', undefined],
    ]);
    expect(screen.getByText(/see also src\/gone\.ts/)).toBeTruthy();
    // Every reference drawn at once goes in one question.
    expect(asked).toEqual([['src/app.ts', 'README.md', 'src/gone.ts']]);
  });

  it('open the file at its line on click, as buttons the keyboard reaches', async () => {
    const { actions, opened } = actionsFor();
    render(
      <ActionsContext.Provider value={actions}>
        <Markdown text="Look at src/app.ts:12." />
      </ActionsContext.Provider>,
    );
    await settle();
    const link = screen.getByRole('button', { name: 'src/app.ts:12' });
    expect(link.tagName).toBe('BUTTON');
    fireEvent.click(link);
    expect(opened).toEqual([['src/app.ts', 12]]);
  });

  it('leave paths inside code blocks and model-written links alone', async () => {
    const { actions, asked } = actionsFor();
    render(
      <ActionsContext.Provider value={actions}>
        <Markdown text={'[notes](https://example.com/src/app.ts)\n\n```\nsrc/app.ts\n```'} />
      </ActionsContext.Provider>,
    );
    await settle();
    expect(screen.queryAllByTestId('file-link')).toEqual([]);
    expect(asked).toEqual([]);
  });
});

describe('file links in tool text', () => {
  it('leave bare names alone where only path:line counts (a listing names entries of its own folder)', async () => {
    const { actions, asked } = actionsFor();
    render(
      <ActionsContext.Provider value={actions}>
        <pre>
          <LinkedText text={'README.md\nsrc/app.ts'} withLine />
        </pre>
      </ActionsContext.Provider>,
    );
    await settle();
    expect(screen.queryAllByTestId('file-link')).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('link search results to their file and line', async () => {
    const { actions, opened } = actionsFor();
    render(
      <ActionsContext.Provider value={actions}>
        <pre>
          <LinkedText text={'src/app.ts:3: const a = 1;\nsrc/gone.ts:9: nothing'} withLine />
        </pre>
      </ActionsContext.Provider>,
    );
    await settle();
    const [link, ...others] = screen.getAllByTestId('file-link');
    expect(others).toEqual([]);
    fireEvent.click(link!);
    expect(opened).toEqual([['src/app.ts', 3]]);
  });
});

describe('a card subtitle', () => {
  const readCall: ToolCallView = {
    call_id: 'c1',
    name: 'read_file',
    args: { path: 'src/app.ts', offset: 120 },
    state: 'done',
    is_error: false,
    approvals: [],
    nested: [],
    execution_time: 3,
    description: { title: 'Read src/app.ts', subtitle: 'app.ts', path: 'src/app.ts' },
    echo_kind: 'read-file',
    echo: {
      kind: 'read-file',
      path: 'src/app.ts',
      range: { start: 120, end: 121 },
      total_lines: 300,
      content: 'a\nb\n',
      truncated: true,
    },
  };

  it('opens the file a read card shows where its page starts', async () => {
    const { actions, opened } = actionsFor();
    render(
      <ActionsContext.Provider value={actions}>
        <CardFrame call={readCall} />
      </ActionsContext.Provider>,
    );
    await settle();
    const link = screen.getByTestId('card-subtitle').querySelector('[data-testid="file-link"]');
    expect(link?.textContent).toBe('app.ts');
    fireEvent.click(link!);
    expect(opened).toEqual([['src/app.ts', 120]]);
  });

  it('stays text for a path that is not a file', async () => {
    const { actions } = actionsFor();
    const folder = {
      ...readCall,
      name: 'list_dir',
      echo_kind: 'text',
      echo: { kind: 'text' as const, text: 'a.ts' },
      description: { title: 'List src', subtitle: 'src', path: 'src' },
    };
    render(
      <ActionsContext.Provider value={actions}>
        <CardFrame call={folder} />
      </ActionsContext.Provider>,
    );
    await settle();
    expect(screen.getByTestId('card-subtitle').textContent).toBe('src');
    expect(screen.queryAllByTestId('file-link')).toEqual([]);
  });
});

function page(start: number, count: number, total: number): FileView {
  const lines = Array.from({ length: count }, (_unused, index) => `const line${start + index} = ${start + index};`);
  return {
    path: 'src/app.ts',
    range: { start, end: start + count - 1 },
    total_lines: total,
    content: `${lines.join('\n')}\n`,
    truncated: start + count - 1 < total,
    sha256: 'a'.repeat(64),
  };
}

describe('the file viewer', () => {
  it('reads the page around the line, marks it, and gives the focus back on Esc', async () => {
    const reads: [string, number | undefined][] = [];
    const { actions } = actionsFor({
      readFile: async (path, offset) => {
        reads.push([path, offset]);
        return { ok: true, value: page(offset ?? 1, 300, 400) };
      },
    });
    const opener = document.createElement('button');
    document.body.append(opener);
    opener.focus();
    act(() => usePanel.getState().openFileViewer({ path: 'src/app.ts', line: 250 }));
    render(
      <ActionsContext.Provider value={actions}>
        <FileViewer />
      </ActionsContext.Provider>,
    );
    await settle();
    expect(reads).toEqual([['src/app.ts', 50]]);
    expect(screen.getByTestId('file-viewer-range').textContent).toMatch(/^Lines 50–349 of 400/);
    expect(document.activeElement).toBe(screen.getByTestId('file-viewer'));
    expect(screen.getByTestId('file-viewer').querySelector('[data-marked] .line-number')?.textContent).toBe('250');
    // Modal: Tab goes round the viewer's own controls, never to the page behind it.
    const close = screen.getByTestId('file-viewer-close');
    const later = screen.getByTestId('file-viewer-later');
    later.focus();
    fireEvent.keyDown(later, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(later);
    fireEvent.keyDown(screen.getByTestId('file-viewer'), { key: 'Escape' });
    expect(usePanel.getState().fileViewer).toBeNull();
    expect(screen.queryByTestId('file-viewer')).toBeNull();
    expect(document.activeElement).toBe(opener);
    opener.remove();
  });

  it('shows the file from its start when the line is past its end', async () => {
    const reads: (number | undefined)[] = [];
    const { actions } = actionsFor({
      readFile: async (_path, offset) => {
        reads.push(offset);
        return offset === 1
          ? { ok: true, value: page(1, 20, 20) }
          : { ok: false, error: 'offset 800 is past the end of src/app.ts, which has 20 lines.' };
      },
    });
    act(() => usePanel.getState().openFileViewer({ path: 'src/app.ts', line: 1000 }));
    render(
      <ActionsContext.Provider value={actions}>
        <FileViewer />
      </ActionsContext.Provider>,
    );
    await settle();
    await settle();
    expect(reads).toEqual([800, 1]);
    expect(screen.getByTestId('file-viewer-range').textContent).toBe(
      'Lines 1–20 of 20 · the file as it is now · it has no line 1000',
    );
  });

  it('says why a file cannot be shown', async () => {
    const { actions } = actionsFor({
      readFile: async () => ({ ok: false, error: 'Refused: ../x is outside the workspace /w.' }),
    });
    act(() => usePanel.getState().openFileViewer({ path: '../x' }));
    render(
      <ActionsContext.Provider value={actions}>
        <FileViewer />
      </ActionsContext.Provider>,
    );
    await settle();
    expect(screen.getByTestId('file-viewer-error').textContent).toMatch(/outside the workspace/);
  });
});
