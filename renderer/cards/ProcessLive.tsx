import { useEffect, useState } from 'react';
import { formatDuration } from '../../protocol/format.ts';
import { PortLink } from './PortLink.tsx';
import { processStateText, withoutEscapes, type ProcessInfo, type ProcessView } from '../../protocol/processes.ts';
import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { SafeText } from '../text/SafeText.tsx';

// The exec card of a command that keeps running stays live: while the process runs it shows its
// state, uptime, the ports it listens on (links, opened after the usual confirmation) and its
// latest lines, read from the open session every second; once it ends, how it ended. The state
// comes from the session's `process_state` events too, so a reloaded or replayed card shows how
// its process ended without asking anything.

const REFRESH_MS = 1000;
const LATEST_LINES = 12;

export interface ProcessLiveProps {
  callId: string;
  id: string;
  /** The output the call returned (its first lines), shown until the process is read. */
  firstOutput: string;
}

export function ProcessLive({ callId, id, firstOutput }: ProcessLiveProps) {
  const actions = useActions();
  const recorded = usePanel((state) => state.transcript.processes[callId]);
  const viewOnly = usePanel((state) => state.viewOnly);
  const [view, setView] = useState<ProcessView | null>(null);
  // The view is this card's process only while its id names the process this call started.
  const read = view && view.process.call_id === callId ? view : null;
  const ended = (recorded && recorded.state !== 'running') || (read && read.process.state !== 'running');
  const polling = !viewOnly && !ended;

  useEffect(() => {
    if (!polling) return;
    let live = true;
    const refresh = async (): Promise<void> => {
      const result = await actions.processOutput(id);
      if (live && result.ok) setView(result.value);
    };
    void refresh();
    const timer = setInterval(() => void refresh(), REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [actions, id, polling]);

  // A recorded end is the last word; else the newest read, else the record of its start.
  const info: ProcessInfo | null =
    recorded && recorded.state !== 'running' ? recorded : (read?.process ?? recorded ?? null);
  const running = info ? info.state === 'running' : true;
  const first = withoutEscapes(firstOutput);
  // Not read (a replayed card): its first lines, then the last line its record kept.
  const lastLine = info?.last_line ?? '';
  const text = read
    ? (read.screen ?? withoutEscapes(read.text))
    : lastLine !== '' && !first.includes(lastLine)
      ? `${first.replace(/\n+$/, '')}\n…\n${lastLine}`
      : first;
  const latest = lastLines(text, LATEST_LINES);
  const exitedWell = info?.state === 'exited' && info.exit_code === 0;
  return (
    <div className="process-live" data-testid="process-live" data-state={info?.state ?? 'running'}>
      <p className="card-meta process-live-meta">
        <span
          className={`badge ${running ? 'badge-running' : exitedWell ? 'badge-ok' : 'badge-error'}`}
          data-testid="process-live-state"
        >
          {running ? `running · ${id}` : `${id} · ${info ? processStateText(info) : ''}`}
        </span>
        {info ? (
          <span className="process-live-time">
            {running ? 'up' : 'ran'} {formatDuration(info.uptime_ms)}
          </span>
        ) : null}
        {running
          ? (info?.ports ?? []).map((port) => <PortLink key={port} port={port} testId="process-live-port" />)
          : null}
      </p>
      {latest === '' ? (
        <p className="card-note">No output{running ? ' yet' : ''}.</p>
      ) : (
        <pre className="exec-output" data-testid="process-live-output" tabIndex={0} aria-label="Latest output">
          <SafeText text={latest} />
        </pre>
      )}
    </div>
  );
}

function lastLines(text: string, count: number): string {
  const lines = text.replace(/\n+$/, '').split('\n');
  return lines.slice(-count).join('\n');
}
