import { describe, expect, it } from 'vitest';
import { traceContentText } from './trace-content.ts';

// The wrapper as read_file renders a page (main/tools/read-file.ts, renderReadFile).
const page = (body: string) => `<path>src/notes.txt</path>\n<type>file</type>\n<content>\n${body}\n</content>`;

describe('traceContentText', () => {
  it('shows a nested read_file page without its wrapper: numbered lines and the footer', () => {
    expect(traceContentText('read_file', page('1: alpha\n2: beta\n\n(End of file - total 2 lines)'))).toBe(
      '1: alpha\n2: beta\n\n(End of file - total 2 lines)',
    );
  });

  it('keeps lines of the file that look like the wrapper', () => {
    const body = '1: </content>\n2: <path>x</path>\n\n(End of file - total 2 lines)';
    expect(traceContentText('read_file', page(body))).toBe(body);
  });

  it('shows a read_file error and the content of other tools as they are', () => {
    expect(traceContentText('read_file', 'No file at docs/missing.md.')).toBe('No file at docs/missing.md.');
    expect(traceContentText('exec', page('x'))).toBe(page('x'));
  });
});
