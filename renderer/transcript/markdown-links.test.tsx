// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { Markdown } from './Markdown.tsx';

// A link the model wrote opens only through openLink (https only, after the person confirms),
// whatever the gesture: the element has no href the browser could open by itself.

afterEach(cleanup);

function renderLink() {
  const opened: string[] = [];
  const actions = new Proxy(
    { openLink: async (url: string) => void opened.push(url) },
    { get: (target, key) => (key === 'openLink' ? target.openLink : async () => undefined) },
  ) as unknown as PanelActions;
  render(
    <ActionsContext.Provider value={actions}>
      <Markdown text="See [the notes](https://example.com/notes)." />
    </ActionsContext.Provider>,
  );
  return { link: screen.getByRole('link', { name: 'the notes' }), opened };
}

describe('model-written links', () => {
  it('carry no href a browser could open without asking', () => {
    const { link } = renderLink();
    expect(link.hasAttribute('href')).toBe(false);
    expect(link.getAttribute('title')).toBe('https://example.com/notes');
  });

  it('go through openLink on click, Ctrl+click, Shift+click, middle click and Enter', () => {
    const { link, opened } = renderLink();
    fireEvent.click(link);
    fireEvent.click(link, { ctrlKey: true });
    fireEvent.click(link, { shiftKey: true });
    fireEvent(link, new MouseEvent('auxclick', { bubbles: true, cancelable: true, button: 1 }));
    fireEvent.keyDown(link, { key: 'Enter' });
    expect(opened).toEqual(Array(5).fill('https://example.com/notes'));
  });

  it('ignore a right click, which opens no link', () => {
    const { link, opened } = renderLink();
    fireEvent(link, new MouseEvent('auxclick', { bubbles: true, cancelable: true, button: 2 }));
    expect(opened).toEqual([]);
  });
});
