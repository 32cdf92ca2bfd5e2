import { useState } from 'react';
import type { NestedCall, ToolCallView } from '../store/transcript-types.ts';
import { CodeLines, splitLines } from './CodeLines.tsx';
import { argsPreview, formatDuration, isEmptyResult, resultText, stringArg } from './decode.ts';
import { Unfinished } from './parts.tsx';
import { traceContentText } from './trace-content.ts';
import type { CardBodyProps, CardView } from './view.ts';
import { SafeText } from '../text/SafeText.tsx';

// Code Mode (seed 001): one card per outer `run_code` call. The body is the final content the
// pipeline rendered (logs, then the return value); the nested calls are a compact trace inside this
// card, never cards of their own.

/** What run_code renders when the program logged nothing and returned nothing. */
const NO_OUTPUT = '(no output)';

function programOf(call: ToolCallView): string {
  return stringArg(call.args, 'code', 'program', 'source') ?? '';
}

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
        <span className="trace-args">
          <SafeText text={argsPreview(entry.args)} />
        </span>
        <span className="trace-time">{formatDuration(entry.execution_time)}</span>
      </button>
      {open ? (
        <pre className={entry.is_error ? 'card-error' : 'trace-content'} data-testid="code-trace-content">
          <SafeText text={traceContentText(entry.name, entry.content)} />
        </pre>
      ) : null}
    </li>
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
  const code = programOf(call);
  const text = resultText(call.result);
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
  return isEmptyResult(call.result) || resultText(call.result).trim() === NO_OUTPUT;
}

export const codeModeView: CardView = {
  kind: 'code-mode',
  subtitle: (call) => {
    const title = stringArg(call.args, 'title', 'description');
    if (title) return title;
    const first = splitLines(programOf(call)).find((line) => line.trim() !== '') ?? '';
    return first.trim().slice(0, 80);
  },
  Body: CodeModeBody,
  // A run that called tools has a trace to show even when it printed nothing.
  isEmpty: (call) => call.nested.length === 0 && isEmptyCodeResult(call),
};
