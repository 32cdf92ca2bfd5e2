import { writeEchoSchema, type WriteEcho } from '../../protocol/echo.ts';
import type { ToolCallView } from '../store/transcript-types.ts';
import { CodeLines } from './CodeLines.tsx';
import { basename } from './decode.ts';
import { decodeEcho } from './echo.ts';
import { languageFor } from './highlight.ts';
import { isEmptyText, TextBody } from './parts.tsx';
import { DiffChange } from './PatchFileView.tsx';
import { ReviewOutcomeView } from '../review/ReviewOutcome.tsx';
import type { CardBodyProps, CardView } from './view.ts';

// write_file shows what it wrote: a new file as numbered, highlighted lines (the read card's
// lines), an overwrite as the patch card's diff. A write with nothing to show (an empty new file,
// an overwrite that changed nothing) is the minimal `✓ ok`.

function NewFile({ echo, name }: { echo: WriteEcho; name: string }) {
  const page = echo.content;
  if (!page) return null;
  const shown = page.text === '' ? 0 : page.text.split('\n').length - (page.text.endsWith('\n') ? 1 : 0);
  return (
    <>
      <p className="card-meta" data-testid="write-summary">
        New file · {page.total_lines} {page.total_lines === 1 ? 'line' : 'lines'}
        {page.truncated ? ` · first ${shown} shown` : ''}
      </p>
      <CodeLines text={page.text} language={languageFor(name)} label={`Content of ${name || 'the file'}`} />
    </>
  );
}

function WriteFileBody({ call }: CardBodyProps) {
  const echo = call.state === 'done' ? decodeEcho(call.echo, writeEchoSchema) : null;
  if (!echo) return <TextBody call={call} />;
  return (
    <div className="write-file" data-testid="write-file">
      {echo.review ? <ReviewOutcomeView review={echo.review} /> : null}
      {echo.created && echo.content ? (
        <NewFile echo={echo} name={basename(call.description?.path ?? echo.path)} />
      ) : echo.change ? (
        <DiffChange change={echo.change} />
      ) : null}
    </div>
  );
}

/** Nothing to show: a new file without text, or an overwrite that changed no line. */
function writesNothing(echo: WriteEcho): boolean {
  if (echo.review) return false;
  if (echo.created) return (echo.content?.text ?? '') === '';
  return echo.change === undefined || echo.change.diff.trim() === '';
}

export const writeFileView: CardView = {
  name: 'write-file',
  Body: WriteFileBody,
  isEmpty: (call: ToolCallView) => {
    const echo = decodeEcho(call.echo, writeEchoSchema);
    return echo ? writesNothing(echo) : isEmptyText(call);
  },
};
