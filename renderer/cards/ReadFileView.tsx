import { readFileEchoSchema } from '../../protocol/echo.ts';
import type { ToolCallView } from '../store/transcript-types.ts';
import { CodeLines } from './CodeLines.tsx';
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

export const readFileView: CardView = {
  name: 'read-file',
  Body: ReadFileBody,
  // A decoded read always has something to show: even an empty page says so.
  isEmpty: (call: ToolCallView) => decodeEcho(call.echo, readFileEchoSchema) === null && isEmptyText(call),
  // The subtitle's link opens the file where this page starts.
  fileLine: (call: ToolCallView) => decodeEcho(call.echo, readFileEchoSchema)?.range.start,
};
