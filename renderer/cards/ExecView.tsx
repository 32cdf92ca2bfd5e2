import { useLayoutEffect, useRef, useState } from 'react';
import { isRecord } from '../../protocol/json.ts';
import { useActions } from '../actions.ts';
import { execEchoSchema } from '../../protocol/echo.ts';
import type { ToolProgress } from '../../protocol/tools.ts';
import type { ToolCallView } from '../store/transcript-types.ts';
import { formatBytes } from '../../protocol/format.ts';
import { decodeEcho, echoPlainText } from './echo.ts';
import { execParts } from '../../protocol/exec-echo.ts';
import { ErrorText, isEmptyText, Unfinished } from './parts.tsx';
import type { CardBodyProps, CardView } from './view.ts';
import { revealText } from '../text/safe-text.ts';
import { SafeText } from '../text/SafeText.tsx';
import { ProcessLive } from './ProcessLive.tsx';

// Commands, local (`exec`) and remote (`ssh_exec`). While the command runs the card shows the live
// output growing in place; then a short badge (`exit 2`, `cancelled`), the sentence
// saying why when the badge cannot (a timeout, a lost connection, a failed start), and the output.
// The duration is the header's alone. Live reports hold a tail window, so the card says how much
// earlier output the window dropped. The finished card reads the structured echo (the end of the
// output); a call that never ran (refused, invalid arguments) echoes its text.

/** Keeps a scroller pinned to its end while the person has not scrolled away from it. */
function usePinnedToBottom(content: string) {
  const ref = useRef<HTMLPreElement>(null);
  const pinned = useRef(true);
  useLayoutEffect(() => {
    const element = ref.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  }, [content]);
  const onScroll = () => {
    const element = ref.current;
    if (element) pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 8;
  };
  return { ref, onScroll };
}

function OutputBlock({ text, cutBytes, live }: { text: string; cutBytes: number; live: boolean }) {
  const { ref, onScroll } = usePinnedToBottom(text);
  return (
    <>
      {cutBytes > 0 ? (
        <p className="card-note" data-testid="exec-cut">
          {cutBytes} bytes cut{cutBytes >= 1024 ? ` (${formatBytes(cutBytes)})` : ''}: the live view keeps only the
          newest output
        </p>
      ) : null}
      <pre
        ref={ref}
        onScroll={onScroll}
        className={`exec-output${live ? ' live' : ''}`}
        data-testid="exec-output"
        tabIndex={0}
        aria-label="Command output"
      >
        <SafeText text={text} ansi />
      </pre>
    </>
  );
}

/** Why the command stopped or never ran, in the model's words: the error text of a failed card. */
function Reason({ text, error }: { text: string; error: boolean }) {
  return error ? (
    <ErrorText text={text} />
  ) : (
    <p className="card-note">
      <SafeText text={text} />
    </p>
  );
}

/** A local command in the foreground: it may move to the session's processes instead of being stopped. */
function movable(call: ToolCallView): boolean {
  if (call.name !== 'exec' || !isRecord(call.args)) return false;
  return call.args['background'] !== true && call.args['tty'] !== true;
}

/** Keep running in the background: the command goes on as a process of the session; its call ends. */
function KeepRunningButton({ callId }: { callId: string }) {
  const actions = useActions();
  const [moving, setMoving] = useState(false);
  const onClick = () => {
    setMoving(true);
    void actions.keepRunning(callId).then((moved) => {
      if (!moved) setMoving(false);
    });
  };
  return (
    <p className="card-actions">
      <button
        type="button"
        className="button small"
        data-testid="exec-keep-running"
        title="Let the command go on as a background process of this session instead of being stopped at its timeout"
        disabled={moving}
        onClick={onClick}
      >
        {moving ? 'Moving…' : 'Keep running in the background'}
      </button>
    </p>
  );
}

function ExecBody({ call }: CardBodyProps) {
  if (call.state === 'running') {
    const progress: ToolProgress | undefined = call.progress;
    const keep = movable(call) ? <KeepRunningButton callId={call.call_id} /> : null;
    if (!progress || progress.total_bytes === 0) return keep;
    return (
      <>
        {keep}
        <OutputBlock text={progress.text} cutBytes={progress.cut_bytes} live />
      </>
    );
  }
  if (call.state === 'interrupted') return <Unfinished call={call} />;

  const echo = decodeEcho(call.echo, execEchoSchema);
  if (!echo) {
    const text = echoPlainText(call.echo);
    return call.is_error ? (
      <ErrorText text={text} />
    ) : (
      <pre className="generic-content" data-testid="generic-content">
        <SafeText text={text} />
      </pre>
    );
  }
  const parsed = execParts(echo);
  // A command that keeps running: its card follows the process until it ends.
  if (echo.status === 'running' && echo.process && call.name === 'exec')
    return (
      <div className="exec">
        {echo.moved_to_background ? <Reason text={parsed.reason} error={false} /> : null}
        <ProcessLive callId={call.call_id} id={echo.process.id} firstOutput={echo.output} />
      </div>
    );
  const ok = parsed.exitCode === 0 && !call.is_error;
  // A command that keeps running in the background has no exit yet: neither a success nor a failure.
  const running = echo.status === 'running';
  // The live window holds more of the output than the echo; a replayed card has only the echo.
  const live = call.progress && call.progress.total_bytes > 0 ? call.progress : null;
  return (
    <div className="exec">
      <p className="card-meta">
        <span
          className={`badge ${running ? 'badge-running' : ok ? 'badge-ok' : 'badge-error'}`}
          data-testid="exec-exit"
          data-exit-code={parsed.exitCode ?? ''}
          title={revealText(parsed.reason)}
        >
          {parsed.label}
        </span>
        {parsed.sandbox ? (
          <span className="badge badge-sandbox" data-testid="exec-sandboxed" title={revealText(parsed.sandbox)}>
            sandboxed
          </span>
        ) : null}
      </p>
      {parsed.explains ? <Reason text={parsed.reason} error={call.is_error} /> : null}
      {parsed.refusal ? (
        <p className="card-note sandbox-refusal" data-testid="exec-sandbox-refusal">
          <SafeText text={parsed.refusal} />
        </p>
      ) : null}
      {live ? (
        <OutputBlock text={live.text} cutBytes={live.cut_bytes} live={false} />
      ) : parsed.noOutput ? (
        <p className="card-note">No output.</p>
      ) : (
        <>
          {parsed.note ? (
            <p className="card-note" data-testid="exec-tail">
              <SafeText text={parsed.note} />
            </p>
          ) : null}
          <OutputBlock text={parsed.output} cutBytes={0} live={false} />
        </>
      )}
    </div>
  );
}

function execIsEmpty(call: ToolCallView): boolean {
  const echo = decodeEcho(call.echo, execEchoSchema);
  if (!echo) return isEmptyText(call);
  const parsed = execParts(echo);
  // A quiet success that stopped what it left running still says so.
  return parsed.exitCode === 0 && parsed.noOutput && !parsed.explains;
}

/** Commands, local and remote: `exec` and `ssh_exec` both echo an ExecEcho. */
export const execView: CardView = {
  name: 'exec',
  Body: ExecBody,
  isEmpty: execIsEmpty,
  stoppable: true,
};
