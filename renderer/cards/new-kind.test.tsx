// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StatusEvent } from '../../protocol/events.ts';
import { reduceStatusEvents } from '../store/transcript-reducer.ts';
import { emptyTranscript } from '../store/transcript-types.ts';
import { decodeEcho } from './echo.ts';
import { registerCardView } from './registry.ts';
import { CardFrame } from './ToolCard.tsx';
import type { CardBodyProps, CardView } from './view.ts';

// A tool with a card of its own touches its echo schema, its tool and its view, registered by kind:
// here a throw-away `sparkline` echo goes from status events through the real reducer, the real
// registry and the real card frame.

afterEach(cleanup);

const sparklineSchema = z.object({ kind: z.literal('sparkline'), points: z.array(z.number()) });

function SparklineBody({ call }: CardBodyProps) {
  const echo = decodeEcho(call.echo, sparklineSchema);
  return <p data-testid="sparkline">{echo ? echo.points.join(' ▁ ') : 'no points'}</p>;
}

const sparklineView: CardView = {
  name: 'sparkline',
  Body: SparklineBody,
  isEmpty: (call) => (decodeEcho(call.echo, sparklineSchema)?.points.length ?? 0) === 0,
};

function cardFor(events: StatusEvent[]) {
  const transcript = reduceStatusEvents(emptyTranscript(), events);
  const call = transcript.calls['c1'];
  if (!call) throw new Error('the reducer kept no call');
  render(<CardFrame call={call} />);
  return screen.getByTestId('tool-card');
}

const started: StatusEvent = {
  type: 'tool_started',
  call_id: 'c1',
  name: 'measure',
  args: { series: 'latency' },
  description: { title: 'Measure latency', subtitle: 'latency' },
  echo_kind: 'sparkline',
};

const completed = (result: StatusEvent & { type: 'tool_completed' }): StatusEvent => result;

describe('a new echo kind', () => {
  it('renders through the real registry with the view registered for it', () => {
    const unregister = registerCardView('sparkline', sparklineView);
    try {
      const card = cardFor([
        started,
        completed({
          type: 'tool_completed',
          call_id: 'c1',
          name: 'measure',
          execution_time: 4,
          is_error: false,
          result: { kind: 'sparkline', points: [3, 1, 4] },
        }),
      ]);
      expect(card.getAttribute('data-view')).toBe('sparkline');
      expect(within(card).getByTestId('card-subtitle').textContent).toBe('latency');
      expect(within(card).getByTestId('sparkline').textContent).toBe('3 ▁ 1 ▁ 4');
    } finally {
      unregister();
    }
  });

  it('falls back to the generic card, showing the echo as text, when no view is registered for it', () => {
    const card = cardFor([
      started,
      completed({
        type: 'tool_completed',
        call_id: 'c1',
        name: 'measure',
        execution_time: 4,
        is_error: false,
        result: { kind: 'sparkline', points: [2, 7] },
      }),
    ]);
    expect(card.getAttribute('data-view')).toBe('generic');
    expect(within(card).getByTestId('generic-content').textContent).toContain('"points"');
  });
});
