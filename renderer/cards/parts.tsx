import { useState } from 'react';
import { copyText } from '../clipboard.ts';
import type { ToolCallView } from '../store/transcript-types.ts';
import { echoPlainText, echoText, errorText } from './echo.ts';
import { SafeText } from '../text/SafeText.tsx';

// Small pieces every view uses the same way.

export function ErrorText({ text }: { text: string }) {
  return (
    <pre className="card-error" data-testid="card-error">
      <SafeText text={text} />
    </pre>
  );
}

/** What a view shows for a call that did not succeed (or never finished); null while running or done. */
export function Unfinished({ call }: { call: ToolCallView }) {
  if (call.state === 'error') return <ErrorText text={errorText(call)} />;
  if (call.state === 'interrupted') {
    return (
      <p className="card-note" data-testid="card-interrupted">
        Interrupted: the turn ended before this call reported a result.
      </p>
    );
  }
  return null;
}

/** A `text` echo where a view expected its own kind (a failure, a spilled result): shown as text. */
export function TextBody({ call }: { call: ToolCallView }) {
  if (call.state !== 'done') return <Unfinished call={call} />;
  return (
    <pre className="generic-content" data-testid="generic-content">
      <SafeText text={echoPlainText(call.echo)} />
    </pre>
  );
}

/** Whether a call's echo is `text` with nothing in it (or there is no echo at all). */
export function isEmptyText(call: ToolCallView): boolean {
  return call.echo === undefined || (call.echo.kind === 'text' && echoText(call).trim() === '');
}

/** Folds an expanded long card from its top, so the person need not scroll to its end to fold it. */
export function ShowFewerTop({ onFold }: { onFold: () => void }) {
  return (
    <button type="button" className="link-button" data-testid="show-fewer-top" onClick={onFold} aria-expanded={true}>
      Show fewer lines
    </button>
  );
}

/**
 * Copies every line of an expanded long card: only the lines in view are in the DOM, so selecting
 * with the mouse cannot reach the rest.
 */
export function CopyLines({ text, count }: { text: string; count: number }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const onClick = () => {
    void copyText(text).then((ok) => {
      setCopied(ok);
      setTimeout(() => setCopied(null), 1500);
    });
  };
  return (
    <button type="button" className="link-button" data-testid="copy-lines" onClick={onClick}>
      {copied === null ? `Copy all ${count} lines` : copied ? 'Copied' : 'Copy failed'}
    </button>
  );
}
