import type { ToolCallView } from '../store/transcript-types.ts';
import { errorText } from './decode.ts';
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
  if (call.state === 'error') return <ErrorText text={errorText(call.result)} />;
  if (call.state === 'interrupted') {
    return (
      <p className="card-note" data-testid="card-interrupted">
        Interrupted: the turn ended before this call reported a result.
      </p>
    );
  }
  return null;
}
