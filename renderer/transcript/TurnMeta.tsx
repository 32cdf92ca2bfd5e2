import { formatDuration } from '../../protocol/format.ts';
import { Elapsed } from '../cards/Elapsed.tsx';
import { usePanel } from '../store/store.ts';
import { formatCost, type TurnUsageView } from '../store/meter.ts';
import type { TurnView } from '../store/transcript-types.ts';

// Under the person's message: how long its turn has been running, then how long it took, the
// tokens it used and what it cost. Tokens and cost grow step by step while the turn runs (the
// steps' usage); the cost is the model's published prices times the provider's token counts.

const ENDED: Record<Exclude<TurnView['state'], 'running'>, string> = {
  completed: 'Took',
  failed: 'Failed after',
  stopped: 'Stopped after',
};

function tokens(turn: TurnView, steps: TurnUsageView | undefined): string | null {
  const usage = steps ?? turn.usage;
  if (!usage) return null;
  const { input_tokens, output_tokens } = usage;
  return `${input_tokens.toLocaleString('en-US')} tokens in, ${output_tokens.toLocaleString('en-US')} out`;
}

/** The turn's cost, or null when none of its steps had known prices. */
function cost(steps: TurnUsageView | undefined): string | null {
  if (!steps) return null;
  const priced = steps.cost > 0 || steps.unpriced_steps === 0;
  return priced ? formatCost(steps.cost) : null;
}

/** The turn's duration (ended − started), or null when either time is unknown. */
export function turnDurationMs(turn: TurnView): number | null {
  if (!turn.started_at || !turn.ended_at) return null;
  const ms = Date.parse(turn.ended_at) - Date.parse(turn.started_at);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

export function TurnMeta({ turnId }: { turnId: string }) {
  const turn = usePanel((state) => state.transcript.turns[turnId]);
  const steps = usePanel((state) => state.transcript.meter.turns[turnId]);
  if (!turn) return null;
  const counts = [tokens(turn, steps), cost(steps)].filter((part): part is string => part !== null);
  if (turn.state === 'running') {
    return turn.started_at ? (
      <div className="turn-meta" data-testid="turn-meta">
        Running <Elapsed since={turn.started_at} testId="turn-elapsed" />
        {counts.length > 0 ? <span data-testid="turn-usage"> · {counts.join(' · ')}</span> : null}
      </div>
    ) : null;
  }
  const duration = turnDurationMs(turn);
  const parts = [duration === null ? null : `${ENDED[turn.state]} ${formatDuration(duration)}`, ...counts].filter(
    (part): part is string => part !== null,
  );
  if (parts.length === 0) return null;
  return (
    <div className="turn-meta" data-testid="turn-meta">
      {parts.join(' · ')}
    </div>
  );
}
