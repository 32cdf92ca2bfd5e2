// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readEcho } from '../../protocol/echo.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { TranscriptPrinter } from '../../main/cli/transcript-printer.ts';
import { StatusRecorder } from '../../main/status/sink.ts';
import { defaultCallHooks } from '../../main/tools/default-call-hooks.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../../main/tools/permission-gate.ts';
import { ToolRegistry } from '../../main/tools/registry.ts';
import { declareEcho, defineTool } from '../../main/tools/tool.ts';
import { decodeEcho } from '../../renderer/cards/echo.ts';
import { registerCardView } from '../../renderer/cards/registry.ts';
import { CardFrame } from '../../renderer/cards/ToolCard.tsx';
import type { CardBodyProps, CardView } from '../../renderer/cards/view.ts';
import { reduceStatusEvents } from '../../renderer/store/transcript-reducer.ts';
import { emptyTranscript } from '../../renderer/store/transcript-types.ts';
import { transcriptMarkdown } from '../../renderer/transcript/markdown.ts';
import { useTempWorkspace } from '../temp-workspace.ts';

// Adding a tool with a card of its own touches only what is the tool's: its schemas (arguments,
// echo and how the echo reads as plain text), its file (the definition) and its view. Here a
// throw-away `measure` tool, declared in this file alone, runs through the real pipeline, and its
// events go through the real reducer to the real card frame, the command line's transcript and
// Copy transcript: no registry, printer or switch elsewhere learns of it.

const temp = useTempWorkspace('aether-new-tool-');
afterEach(cleanup);

// Its schemas.
const measureArgsSchema = z.object({ series: z.string(), points: z.array(z.number()) });
const sparklineEchoSchema = z.object({ kind: z.literal('sparkline'), series: z.string(), points: z.array(z.number()) });
readEcho(sparklineEchoSchema, {
  text: (echo) => `${echo.series}: ${echo.points.join(', ')}`,
  line: (echo) => `${echo.points.length} points of ${echo.series}, highest ${Math.max(...echo.points)}`,
});

// Its file.
const measureTool = defineTool<z.infer<typeof measureArgsSchema>, { series: string; points: number[] }>({
  name: 'measure',
  model: {
    description: 'Measures a series.',
    schema: measureArgsSchema,
    render: (result) => `${result.series}: ${result.points.length} points`,
  },
  gate: { kind: 'read' },
  card: {
    describe: (args) => ({ title: `Measure ${args.series}`, subtitle: args.series }),
    echo: declareEcho(sparklineEchoSchema, (result: { series: string; points: number[] }) => ({
      kind: 'sparkline',
      series: result.series,
      points: result.points,
    })),
  },
  execute: async (args) => ({ series: args.series, points: args.points }),
});

// Its view.
function SparklineBody({ call }: CardBodyProps) {
  const echo = decodeEcho(call.echo, sparklineEchoSchema);
  return createElement('p', { 'data-testid': 'sparkline' }, echo ? echo.points.join(' ▁ ') : 'no points');
}
const sparklineView: CardView = {
  name: 'sparkline',
  Body: SparklineBody,
  isEmpty: (call) => (decodeEcho(call.echo, sparklineEchoSchema)?.points.length ?? 0) === 0,
};

/** One call of the tool through the pipeline: its events, and what the command line printed of them. */
async function measured(): Promise<{ events: StatusEvent[]; printed: string }> {
  const recorder = new StatusRecorder();
  let printed = '';
  const printer = new TranscriptPrinter((text) => (printed += text));
  const sink = {
    emit: (event: StatusEvent) => {
      recorder.emit(event);
      printer.emit(event);
    },
  };
  const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'nobody answers here'));
  const registry = new ToolRegistry({
    workspace: temp.workspace,
    sessionDir: temp.sessionDir,
    sink,
    gate,
    hooks: defaultCallHooks(),
  });
  registry.register(measureTool);
  const outcome = await registry.call({
    callId: 'c1',
    name: 'measure',
    args: { series: 'latency', points: [3, 1, 4] },
  });
  expect(outcome).toMatchObject({ isError: false, content: 'latency: 3 points' });
  return { events: recorder.events, printed };
}

describe('a tool added with its own card', () => {
  it('reaches its card through the pipeline and the reducer, and the command line reads its echo', async () => {
    const unregister = registerCardView('sparkline', sparklineView);
    try {
      const { events, printed } = await measured();
      const transcript = reduceStatusEvents(emptyTranscript(), events);
      const call = transcript.calls['c1'];
      expect(call?.echo_kind).toBe('sparkline');
      render(createElement(CardFrame, { call: call! }));
      const card = screen.getByTestId('tool-card');
      expect(card.getAttribute('data-view')).toBe('sparkline');
      expect(within(card).getByTestId('card-subtitle').textContent).toBe('latency');
      expect(within(card).getByTestId('sparkline').textContent).toBe('3 ▁ 1 ▁ 4');
      expect(printed).toContain('✓ Measure latency');
      expect(printed).toContain(': 3 points of latency, highest 4 [c1]');
      expect(transcriptMarkdown(transcript)).toContain('latency: 3, 1, 4');
    } finally {
      unregister();
    }
  });

  it('without its view registered, shows its echo as its kind reads on the generic card', async () => {
    const { events } = await measured();
    render(createElement(CardFrame, { call: reduceStatusEvents(emptyTranscript(), events).calls['c1']! }));
    const card = screen.getByTestId('tool-card');
    expect(card.getAttribute('data-view')).toBe('generic');
    expect(within(card).getByTestId('generic-content').textContent).toBe('latency: 3, 1, 4');
  });
});
