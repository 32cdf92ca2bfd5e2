import { useEffect, useState } from 'react';
import { formatDuration } from '../../protocol/format.ts';

// A live "how long so far" for something still running: a running card, the running turn. It ticks
// once a second and stops ticking when it leaves the page.

/** Seconds since `since` (an ISO time or epoch ms), recomputed every second while mounted. */
export function useElapsedSeconds(since: string | number | undefined): number | null {
  const start = since === undefined ? NaN : typeof since === 'number' ? since : Date.parse(since);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (Number.isNaN(start)) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [start]);
  if (Number.isNaN(start)) return null;
  return Math.max(0, (now - start) / 1000);
}

/** Whole seconds, as a ticking clock reads: `0 s`, `42 s`, then `1m 05s`. */
export function formatElapsed(seconds: number): string {
  const whole = Math.floor(seconds);
  return whole < 60 ? `${whole} s` : formatDuration(whole * 1000);
}

/** The elapsed time of something running, or nothing when its start is unknown. */
export function Elapsed({ since, testId }: { since: string | number | undefined; testId: string }) {
  const seconds = useElapsedSeconds(since);
  if (seconds === null) return null;
  return (
    <span className="card-time is-elapsed" data-testid={testId} title="Running for">
      {formatElapsed(seconds)}
    </span>
  );
}
