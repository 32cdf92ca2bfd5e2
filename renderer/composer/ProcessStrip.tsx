import { useEffect, useState } from 'react';
import { formatDuration } from '../../protocol/format.ts';
import { PortLink } from '../cards/PortLink.tsx';
import { withoutEscapes, type ProcessInfo, type ProcessView } from '../../protocol/processes.ts';
import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import '../styles/processes.css';

// The session's running background processes, above the message box: each one's command, uptime,
// last line, the ports it listens on (links to http://127.0.0.1:port, opened after the usual
// confirmation) and Stop. A row opens the process's live output — its screen when it runs in a
// terminal. Read from the open session every second while the panel shows it.

const REFRESH_MS = 1000;

export function ProcessStrip() {
  const viewOnly = usePanel((state) => state.viewOnly);
  const sessionId = usePanel((state) => state.session?.id ?? null);
  const actions = useActions();
  const [processes, setProcesses] = useState<ProcessInfo[]>([]);
  const [collapsed, setCollapsed] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);

  useEffect(() => {
    if (viewOnly || sessionId === null) {
      setProcesses([]);
      return;
    }
    let live = true;
    const refresh = async (): Promise<void> => {
      const listed = await actions.processes();
      if (live) setProcesses(listed.filter((process) => process.state === 'running'));
    };
    void refresh();
    const timer = setInterval(() => void refresh(), REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [actions, viewOnly, sessionId]);

  if (processes.length === 0) return null;
  const open = processes.find((process) => process.id === openId) ?? null;
  return (
    <section className="process-strip" aria-label="Background processes" data-testid="process-strip">
      <button
        type="button"
        className="process-strip-head"
        aria-expanded={!collapsed}
        data-testid="process-strip-toggle"
        onClick={() => setCollapsed(!collapsed)}
      >
        <span aria-hidden="true">{collapsed ? '▸' : '▾'}</span> Processes · {processes.length} running
      </button>
      {collapsed ? null : (
        <ul className="process-rows">
          {processes.map((process) => (
            <ProcessRow
              key={process.id}
              process={process}
              open={process.id === openId}
              onToggle={() => setOpenId(process.id === openId ? null : process.id)}
              onStop={async () => {
                if (await actions.stopProcess(process.id))
                  setProcesses((all) => all.filter((p) => p.id !== process.id));
              }}
            />
          ))}
        </ul>
      )}
      {!collapsed && open ? <ProcessOutput id={open.id} /> : null}
    </section>
  );
}

function ProcessRow({
  process,
  open,
  onToggle,
  onStop,
}: {
  process: ProcessInfo;
  open: boolean;
  onToggle: () => void;
  onStop: () => Promise<void>;
}) {
  const [stopping, setStopping] = useState(false);
  return (
    <li className="process-row" data-testid="process-row" data-process={process.id}>
      <button
        type="button"
        className="process-main"
        aria-expanded={open}
        title={`${process.command} — show its output`}
        data-testid="process-open"
        onClick={onToggle}
      >
        <span className="process-command" data-testid="process-command">
          {process.command}
        </span>
        <span className="process-meta">
          {process.tty ? 'terminal · ' : ''}
          {formatDuration(process.uptime_ms)}
        </span>
        {process.last_line ? (
          <span className="process-last" data-testid="process-last-line">
            {process.last_line}
          </span>
        ) : null}
      </button>
      {process.ports.map((port) => (
        <PortLink key={port} port={port} testId="process-port" />
      ))}
      <button
        type="button"
        className="button small"
        data-testid="process-stop"
        disabled={stopping}
        aria-label={`Stop ${process.command}`}
        onClick={() => {
          setStopping(true);
          void onStop().finally(() => setStopping(false));
        }}
      >
        {stopping ? 'Stopping…' : 'Stop'}
      </button>
    </li>
  );
}

function ProcessOutput({ id }: { id: string }) {
  const actions = useActions();
  const [view, setView] = useState<ProcessView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const refresh = async (): Promise<void> => {
      const read = await actions.processOutput(id);
      if (!live) return;
      if (read.ok) {
        setView(read.value);
        setError(null);
      } else setError(read.error);
    };
    void refresh();
    const timer = setInterval(() => void refresh(), REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [actions, id]);
  const text = view ? (view.screen ?? withoutEscapes(view.text)) : '';
  return (
    <div className="process-output" data-testid="process-output" aria-live="off">
      {error ? <p className="process-error">{error}</p> : null}
      {view && view.before > 0 && view.screen === undefined ? (
        <p className="process-note">
          The newest output; {view.before} bytes before it are in the session&apos;s folder.
        </p>
      ) : null}
      <pre className="process-text" tabIndex={0} aria-label={`Output of ${view?.process.command ?? id}`}>
        {text === '' ? '(no output yet)' : text}
      </pre>
    </div>
  );
}
