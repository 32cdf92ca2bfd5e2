// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeLines } from './CodeLines.tsx';
import { DiffLines } from './PatchFileView.tsx';
import { LINE_HEIGHT, lineWindow } from './VirtualLines.tsx';

// An expanded long card renders only the lines around its view; the rest are space to scroll through.

afterEach(cleanup);

const text = Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`).join('\n');

describe('lineWindow', () => {
  it('covers the view and a margin on each side, clamped to the lines there are', () => {
    expect(lineWindow(2000, 0, 360)).toEqual({ first: 0, end: 40 });
    expect(lineWindow(2000, 1000 * LINE_HEIGHT, 360)).toEqual({ first: 980, end: 1040 });
    expect(lineWindow(2000, 1995 * LINE_HEIGHT, 360)).toEqual({ first: 1975, end: 2000 });
    expect(lineWindow(0, 0, 360)).toEqual({ first: 0, end: 0 });
  });
});

describe('an expanded long read', () => {
  it('renders a window of its lines, moves it as the box scrolls, and keeps the full height to scroll', async () => {
    render(<CodeLines text={text} />);
    fireEvent.click(screen.getByRole('button', { name: /Show all 2000 lines/ }));
    const box = screen.getByTestId('code-lines');
    const rendered = () => screen.getAllByTestId('code-line').map((line) => line.firstChild?.textContent);
    expect(rendered().length).toBeLessThan(100);
    expect(rendered()[0]).toBe('1');
    const track = box.firstElementChild as HTMLElement;
    expect(track.style.height).toBe(`${2000 * LINE_HEIGHT}px`);

    box.scrollTop = 1500 * LINE_HEIGHT;
    fireEvent.scroll(box);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    await screen.findByText('line 1500');
    expect(rendered()).toContain('1500');
    expect(rendered()).not.toContain('1');
  });

  it('a long diff scrolls the same way, unified rows windowed', () => {
    const diff = ['--- a/x.txt', '+++ b/x.txt', '@@ -1,2000 +1,2000 @@', ...text.split('\n').map((l) => `+${l}`)].join(
      '\n',
    );
    render(<DiffLines diff={diff} />);
    fireEvent.click(screen.getByRole('button', { name: /Show the whole diff/ }));
    const box = screen.getByTestId('patch-diff');
    expect(box.getAttribute('data-lines')).toBe('2001');
    expect(box.querySelectorAll('.diff-line').length).toBeLessThan(100);
    expect(screen.getByTestId('copy-lines').textContent).toBe('Copy all 2001 lines');
  });
});

describe('a card drawn again', () => {
  it('comes back expanded when the person had expanded it, and folded once folded', () => {
    const page = Array.from({ length: 300 }, (_, i) => `again ${i + 1}`).join('\n');
    const first = render(<CodeLines text={page} />);
    fireEvent.click(screen.getByRole('button', { name: /Show all 300 lines/ }));
    first.unmount();
    const second = render(<CodeLines text={page} />);
    expect(screen.getByTestId('code-lines').getAttribute('data-lines')).toBe('300');
    fireEvent.click(screen.getByTestId('show-fewer-top'));
    second.unmount();
    render(<CodeLines text={page} />);
    expect(screen.getByRole('button', { name: /Show all 300 lines/ })).toBeTruthy();
  });
});
