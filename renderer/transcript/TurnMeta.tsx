import { formatDuration } from '../../protocol/format.ts';
import { Elapsed } from '../cards/Elapsed.tsx';
import { usePanel } from '../store/store.ts';
import type { TurnView } from '../store/transcript-types.ts';

// Under the person's message: how long its turn has been running, then how long it took and the
// tokens it used. Cost is not shown: no provider reports it on the stream, so there is nothing true to print.

const ENDED: Record<Exclude<TurnView['state'], 'running'>, string> = {
  completed: 'Took',
  failed: 'Failed after',
  stopped: 'Stopped after',
};

function tokens(turn: TurnView): string | null {
  if (!turn.usage) return null;
  const { input_tokens, output_tokens } = turn.usage;
  return `${input_tokens.toLocaleString('en-US')} tokens in, ${output_tokens.toLocaleString('en-US')} out`;
}

/** The turn's duration (ended − started), or null when either time is unknown. */
export function turnDurationMs(turn: TurnView): number | null {
  if (!turn.started_at || !turn.ended_at) return null;
  const ms = Date.parse(turn.ended_at) - Date.parse(turn.started_at);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

export function TurnMeta({ turnId }: { turnId: string }) {
  const turn = usePanel((state) => state.transcript.turns[turnId]);
  if (!turn) return null;
  if (turn.state === 'running') {
    return turn.started_at ? (
      <div className="turn-meta" data-testid="turn-meta">
        Running <Elapsed since={turn.started_at} testId="turn-elapsed" />
      </div>
    ) : null;
  }
  const duration = turnDurationMs(turn);
  const parts = [duration === null ? null : `${ENDED[turn.state]} ${formatDuration(duration)}`, tokens(turn)].filter(
    (part): part is string => part !== null,
  );
  if (parts.length === 0) return null;
  return (
    <div className="turn-meta" data-testid="turn-meta">
      {parts.join(' · ')}
    </div>
  );
}
