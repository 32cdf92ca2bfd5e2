// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeLines } from './CodeLines.tsx';
import { DiffLines } from './PatchFileView.tsx';

// A long read or diff, once expanded, can be folded again from its top as well as its bottom.

afterEach(cleanup);

const longText = Array.from({ length: 120 }, (_, i) => `line ${i + 1}`).join('\n');
const longDiff = [
  '--- a/x.txt',
  '+++ b/x.txt',
  '@@ -1,120 +1,120 @@',
  ...longText.split('\n').map((l) => `+${l}`),
].join('\n');

describe('show fewer', () => {
  it('a long read offers "Show fewer lines" at its top once expanded, and folding from there works', () => {
    render(<CodeLines text={longText} />);
    expect(screen.getAllByTestId('code-line')).toHaveLength(40);
    expect(screen.queryByTestId('show-fewer-top')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Show all 120 lines/ }));
    expect(screen.getByTestId('code-lines').getAttribute('data-lines')).toBe('120');
    expect(screen.getByTestId('code-lines').getAttribute('tabindex')).toBe('0');
    expect(screen.getAllByRole('button', { name: 'Show fewer lines' })).toHaveLength(2);
    fireEvent.click(screen.getByTestId('show-fewer-top'));
    expect(screen.getAllByTestId('code-line')).toHaveLength(40);
  });

  it('a long diff offers it at its top too', () => {
    render(<DiffLines diff={longDiff} />);
    fireEvent.click(screen.getByRole('button', { name: /Show the whole diff/ }));
    expect(screen.getAllByRole('button', { name: 'Show fewer lines' })).toHaveLength(2);
    fireEvent.click(screen.getByTestId('show-fewer-top'));
    expect(screen.queryByTestId('show-fewer-top')).toBeNull();
  });
});
