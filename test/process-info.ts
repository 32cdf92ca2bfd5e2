import type { ProcessInfo } from '../protocol/processes.ts';

// A background process's record, as a process_state event carries it, for the tests that show or
// count processes (the transcript, the command line's printer, the desktop app's Quit). Plain
// types only: the renderer's tests take it too.

/** A dev server just started (`npm run dev`, p1 of the call c1); `change` sets what differs. */
export function processInfo(change: Partial<ProcessInfo> = {}): ProcessInfo {
  return {
    id: 'p1',
    call_id: 'c1',
    command: 'npm run dev',
    tty: false,
    pid: 412,
    state: 'running',
    exit_code: null,
    signal: null,
    started_at: '2026-01-01T00:00:00.000Z',
    uptime_ms: 0,
    output_bytes: 0,
    output_lines: 0,
    ports: [],
    last_line: '',
    ...change,
  };
}
