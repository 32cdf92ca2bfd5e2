// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { languageForFence } from '../cards/highlight.ts';
import { cachedHighlight } from '../cards/use-highlight.ts';
import { Markdown } from './Markdown.tsx';

// Code blocks in answers: the fence's language as a label, the code highlighted once shiki has it,
// and a Copy button that puts exactly the code on the clipboard.

afterEach(cleanup);

const noActions = new Proxy({} as PanelActions, { get: () => async () => undefined });

function renderAnswer(text: string) {
  return render(
    <ActionsContext.Provider value={noActions}>
      <Markdown text={text} />
    </ActionsContext.Provider>,
  ).container;
}

describe('a code block in an answer', () => {
  it('shows its language, then its code in colour', async () => {
    const container = renderAnswer('Here:\n\n```ts\nconst answer: number = 42;\n```');
    expect(screen.getByTestId('md-code-language').textContent).toBe('ts');
    expect(container.querySelector('pre')?.textContent).toBe('const answer: number = 42;');
    await waitFor(() => expect(container.querySelector('pre')?.getAttribute('data-highlighted')).toBe('true'));
    const coloured = [...container.querySelectorAll('.md-code-line span[style]')];
    expect(coloured.length).toBeGreaterThan(3);
    expect(container.querySelector('pre')?.textContent).toBe('const answer: number = 42;');
  });

  it('shown again (remounted, scrolled back into view) is coloured at once, from the cache', async () => {
    const text = '```json\n{ "cached": true }\n```';
    const first = renderAnswer(text);
    await waitFor(() => expect(first.querySelector('pre')?.getAttribute('data-highlighted')).toBe('true'));
    expect(cachedHighlight('{ "cached": true }', 'json')).toBeTruthy();
    cleanup();
    const again = renderAnswer(text);
    expect(again.querySelector('pre')?.getAttribute('data-highlighted')).toBe('true');
  });

  it('copies exactly its code', async () => {
    const written: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void written.push(text) },
    });
    renderAnswer('```sh\nnpm ci\nnpm test\n```');
    fireEvent.click(screen.getByTestId('code-copy'));
    await waitFor(() => expect(screen.getByTestId('code-copy').textContent).toBe('Copied'));
    expect(written).toEqual(['npm ci\nnpm test']);
  });

  it('without a language reads as text and stays plain', () => {
    const container = renderAnswer('```\nplain words\n```');
    expect(screen.getByTestId('md-code-language').textContent).toBe('text');
    expect(container.querySelector('pre')?.getAttribute('data-highlighted')).toBe('false');
  });

  it('understands common fence tags', () => {
    expect(languageForFence('ts')).toBe('typescript');
    expect(languageForFence('TypeScript')).toBe('typescript');
    expect(languageForFence('sh')).toBe('shellscript');
    expect(languageForFence('console')).toBe('shellscript');
    expect(languageForFence('brainfuck')).toBeNull();
  });
});
