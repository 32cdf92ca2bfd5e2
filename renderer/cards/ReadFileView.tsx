import type { ToolCallView } from '../store/transcript-types.ts';
import { CodeLines } from './CodeLines.tsx';
import { asReadFileResult, basename, isEmptyResult, pathSubtitle, resultText, stringArg } from './decode.ts';
import { languageFor } from './highlight.ts';
import { Unfinished } from './parts.tsx';
import type { CardBodyProps, CardView } from './view.ts';

// The file mirror's read card (seed 000): basename subtitle, the range, numbered content. It works
// from the structured result, so the model's `<path>/<type>/<content>` wrapper never shows.

function ReadFileBody({ call }: CardBodyProps) {
  if (call.state !== 'done') return <Unfinished call={call} />;
  const result = asReadFileResult(call.result);
  if (!result)
    return (
      <pre className="generic-content" data-testid="generic-content">
        {resultText(call.result)}
      </pre>
    );
  const { start, end } = result.range;
  const name = basename(stringArg(call.args, 'path') ?? result.path);
  const empty = end < start;
  return (
    <div className="read-file">
      <p className="card-meta" data-testid="read-range">
        {empty ? 'No lines' : `Lines ${start}–${end}`} of {result.total_lines}
        {result.truncated ? ' · more below' : ''}
      </p>
      {empty ? null : (
        <CodeLines
          text={result.content}
          start={start}
          language={languageFor(name)}
          label={`Content of ${name || 'the file'}`}
        />
      )}
    </div>
  );
}

export const readFileView: CardView = {
  kind: 'read-file',
  subtitle: pathSubtitle,
  Body: ReadFileBody,
  // A decoded read always has something to show: even an empty page says so.
  isEmpty: (call: ToolCallView) => asReadFileResult(call.result) === null && isEmptyResult(call.result),
};
