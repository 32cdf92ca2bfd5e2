import { useEffect, useState } from 'react';
import { nearLimits, nearLimitText } from '../store/meter.ts';
import { usePanel } from '../store/store.ts';

// Above the footer, in words, when one of the provider's rate limits is near (under 10 % left, as
// the last response stated): which, how much is left, and until when. A polite live region, so a
// screen reader hears it; it goes when the limit resets.

export function LimitNote() {
  const meter = usePanel((state) => state.transcript.meter);
  const [now, setNow] = useState(() => Date.now());
  const near = nearLimits(meter, now);
  const text = nearLimitText(near);
  // Gone when the soonest of them resets.
  const resets = near.flatMap((limit) => (limit.resets_at === undefined ? [] : [Date.parse(limit.resets_at)]));
  const next = resets.length > 0 ? Math.min(...resets) : undefined;
  useEffect(() => {
    if (next === undefined) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, next - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [next]);
  return (
    <div className="context-note" role="status" data-testid="limit-note-region">
      {text === null ? null : (
        <p className="context-note-text" data-testid="limit-note" data-level="soon">
          {text}
        </p>
      )}
    </div>
  );
}
