import { useState } from 'react';
import { codeEchoSchema } from '../../protocol/echo.ts';
import type { NestedCall, ToolCallView } from '../store/transcript-types.ts';
import { CodeLines, splitLines } from './CodeLines.tsx';
import { formatDuration } from '../../protocol/format.ts';
import { argsPreview } from './decode.ts';
import { decodeEcho, echoText } from './echo.ts';
import { isEmptyText, Unfinished } from './parts.tsx';
import { cardViewFor } from './view-table.ts';
import type { CardBodyProps, CardView } from './view.ts';
import { SafeText } from '../text/SafeText.tsx';
import { revealText } from '../text/safe-text.ts';

// The Code Mode card: one card per outer `run_code` call. The body is the final content the
// pipeline rendered (logs, then the return value); the nested calls are a compact trace inside this
// card, never cards of their own. Each nested call's echo opens with the body of its own kind.

function Program({ code }: { code: string }) {
  const [open, setOpen] = useState(false);
  const lines = splitLines(code).length;
  return (
    <div className="code-program">
      <button
        type="button"
        className="link-button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid="code-program-toggle"
      >
        {open ? '▾' : '▸'} Program · {lines} {lines === 1 ? 'line' : 'lines'}
      </button>
      {open ? (
        <CodeLines text={code} language="javascript" label="Program" testId="code-program" collapsedLines={200} />
      ) : null}
    </div>
  );
}

function TraceEntry({ entry }: { entry: NestedCall }) {
  const [open, setOpen] = useState(false);
  return (
    <li
      className={`trace-entry ${entry.is_error ? 'trace-error' : 'trace-ok'}`}
      data-testid="code-trace-entry"
      data-state={entry.is_error ? 'error' : 'ok'}
    >
      <button type="button" className="trace-row" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="trace-mark" aria-label={entry.is_error ? 'failed' : 'ok'}>
          {entry.is_error ? '✗' : '✓'}
        </span>
        <span className="trace-name">{entry.name}</span>
        <span className="trace-args" title={entry.description ? revealText(argsPreview(entry.args)) : undefined}>
          <SafeText text={entry.description ? traceLabel(entry.description) : argsPreview(entry.args)} />
        </span>
        <span className="trace-time">{formatDuration(entry.execution_time)}</span>
      </button>
      {open ? <NestedEcho entry={entry} /> : null}
    </li>
  );
}

/** A nested call's echo, shown by the body of its kind as its own card would show it. */
function NestedEcho({ entry }: { entry: NestedCall }) {
  const call: ToolCallView = {
    call_id: entry.call_id,
    name: entry.name,
    args: entry.args,
    state: entry.is_error ? 'error' : 'done',
    is_error: entry.is_error,
    echo: entry.echo,
    approvals: [],
    nested: [],
  };
  const { Body } = cardViewFor(call);
  return (
    <div className="trace-echo" data-testid="code-trace-echo">
      <Body call={call} />
    </div>
  );
}

function Trace({ nested }: { nested: NestedCall[] }) {
  const [open, setOpen] = useState(true);
  if (nested.length === 0) return null;
  const failed = nested.filter((entry) => entry.is_error).length;
  return (
    <div className="code-trace">
      <button
        type="button"
        className="link-button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid="code-trace-toggle"
      >
        {open ? '▾' : '▸'} {nested.length} {nested.length === 1 ? 'call' : 'calls'}
        {failed > 0 ? ` · ${failed} failed` : ''}
      </button>
      {open ? (
        <ol className="trace" data-testid="code-trace">
          {nested.map((entry) => (
            <TraceEntry key={entry.call_id} entry={entry} />
          ))}
        </ol>
      ) : null}
    </div>
  );
}

function CodeModeBody({ call }: CardBodyProps) {
  const code = call.description?.detail ?? '';
  const run = decodeEcho(call.echo, codeEchoSchema);
  // A spilled result echoes the text the model got instead (its head and tail).
  const text = run ? run.output : echoText(call);
  return (
    <div className="code-mode">
      {code ? <Program code={code} /> : null}
      <Trace nested={call.nested} />
      {call.state === 'done' && !isEmptyCodeResult(call) ? (
        <pre className="generic-content" data-testid="code-result">
          <SafeText text={text} />
        </pre>
      ) : (
        <Unfinished call={call} />
      )}
    </div>
  );
}

function isEmptyCodeResult(call: ToolCallView): boolean {
  const run = decodeEcho(call.echo, codeEchoSchema);
  return run ? run.empty : isEmptyText(call);
}

export const codeModeView: CardView = {
  name: 'code-mode',
  Body: CodeModeBody,
  // A run that called tools has a trace to show even when it printed nothing.
  isEmpty: (call) => call.nested.length === 0 && isEmptyCodeResult(call),
};

/** A nested call's own description in one line: its title, and its subtitle when the title does not hold it. */
function traceLabel(description: { title: string; subtitle: string }): string {
  const { title, subtitle } = description;
  return !subtitle || title.includes(subtitle) ? title : `${title} · ${subtitle}`;
}
