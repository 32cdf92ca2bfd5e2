// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CodeLines } from './CodeLines.tsx';
import { DiffLines } from './PatchFileView.tsx';
import { CodeBlock } from '../transcript/CodeBlock.tsx';

// A box of code that scrolls sideways is in the Tab order, so the keyboard can scroll it; one that
// fits is not.

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** jsdom lays nothing out: boxes report `scroll` px of content in `client` px of room. */
function layout(scroll: number, client: number) {
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(scroll);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(client);
}

describe('scrolling code', () => {
  it('a read whose lines are wider than the card can be focused and scrolled from the keyboard', () => {
    layout(900, 300);
    render(<CodeLines text={'const a = 1;\n'} label="Content of a.ts" />);
    expect(screen.getByTestId('code-lines').getAttribute('tabindex')).toBe('0');
  });

  it('a diff wider than the card can be focused, and a code block in an answer too', () => {
    layout(900, 300);
    render(
      <>
        <DiffLines diff={'@@ -1,1 +1,1 @@\n-a\n+b\n'} />
        <CodeBlock>
          <code className="language-ts">{'const a = 1;\n'}</code>
        </CodeBlock>
      </>,
    );
    expect(screen.getByTestId('patch-diff').getAttribute('tabindex')).toBe('0');
    const pre = screen.getByTestId('md-code').querySelector('pre');
    expect(pre?.getAttribute('tabindex')).toBe('0');
    expect(pre?.getAttribute('role')).toBe('region');
  });

  it('code that fits stays out of the Tab order', () => {
    layout(300, 300);
    render(<CodeLines text={'const a = 1;\n'} label="Content of a.ts" />);
    expect(screen.getByTestId('code-lines').hasAttribute('tabindex')).toBe(false);
  });
});
