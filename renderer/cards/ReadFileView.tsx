import { readFileEchoSchema } from '../../protocol/echo.ts';
import { isRecord } from '../../protocol/json.ts';
import type { ToolCallView } from '../store/transcript-types.ts';
import { CodeLines, foldedCode } from './CodeLines.tsx';
import { basename } from './decode.ts';
import { decodeEcho } from './echo.ts';
import { languageFor } from './highlight.ts';
import { isEmptyText, TextBody } from './parts.tsx';
import type { CardBodyProps, CardView } from './view.ts';

// The read card: the range and the numbered content. The echo is the page
// without its numbers, so the model's XML wrapper (its path, type and content elements) never reaches the panel.

function ReadFileBody({ call }: CardBodyProps) {
  const page = call.state === 'done' ? decodeEcho(call.echo, readFileEchoSchema) : null;
  if (!page) return <TextBody call={call} />;
  const { start, end } = page.range;
  const name = basename(call.description?.path ?? page.path);
  const empty = end < start;
  return (
    <div className="read-file">
      <p className="card-meta" data-testid="read-range">
        {empty ? 'No lines' : `Lines ${start}–${end}`} of {page.total_lines}
        {page.truncated ? ' · more below' : ''}
      </p>
      {empty ? null : (
        <CodeLines
          text={page.content}
          start={start}
          language={languageFor(name)}
          label={`Content of ${name || 'the file'}`}
        />
      )}
    </div>
  );
}

function lineWords(start: number, end: number): string {
  return start === end ? `line ${start}` : `lines ${start}–${end}`;
}

/**
 * The lines a read covered when it was not the whole file (`lines 201–400`), from its page once it
 * is done and from its arguments until then: two reads of one file differ by them.
 */
export function readLines(call: ToolCallView): string | undefined {
  const page = decodeEcho(call.echo, readFileEchoSchema);
  if (page) {
    const { start, end } = page.range;
    if (end < start || (start <= 1 && !page.truncated)) return undefined;
    return lineWords(start, end);
  }
  const args = isRecord(call.args) ? call.args : {};
  const offset = typeof args['offset'] === 'number' ? args['offset'] : 1;
  const limit = typeof args['limit'] === 'number' ? args['limit'] : undefined;
  if (limit !== undefined) return lineWords(offset, offset + limit - 1);
  return offset > 1 ? `from line ${offset}` : undefined;
}

export const readFileView: CardView = {
  name: 'read-file',
  Body: ReadFileBody,
  // A decoded read always has something to show: even an empty page says so.
  isEmpty: (call: ToolCallView) => decodeEcho(call.echo, readFileEchoSchema) === null && isEmptyText(call),
  // The subtitle's link opens the file where this page starts.
  fileLine: (call: ToolCallView) => decodeEcho(call.echo, readFileEchoSchema)?.range.start,
  subtitleNote: readLines,
  codeToColour: (call: ToolCallView) => {
    const page = call.state === 'done' ? decodeEcho(call.echo, readFileEchoSchema) : null;
    const language = page ? languageFor(basename(call.description?.path ?? page.path)) : null;
    if (!page || !language || page.range.end < page.range.start) return null;
    return { code: foldedCode(page.content), language };
  },
};
