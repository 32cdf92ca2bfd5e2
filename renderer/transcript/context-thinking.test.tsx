// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { reduceStatusEvents } from '../store/transcript-reducer.ts';
import { emptyTranscript, type MessageEntry } from '../store/transcript-types.ts';
import { ContextCard } from './ContextCard.tsx';
import { ThinkingBlock } from './ThinkingBlock.tsx';

afterEach(cleanup);

function messagesOf(events: StatusEvent[]): MessageEntry[] {
  const state = reduceStatusEvents(emptyTranscript(), events);
  return state.order.map((item) => state.messages[item.id]!).filter(Boolean);
}

const at = '2026-01-01T00:00:00.000Z';

describe('reasoning in the transcript', () => {
  it('grows one streaming block from the deltas, then the durable event makes it whole with its duration', () => {
    const live: StatusEvent[] = [
      { type: 'turn_started', turn_id: 't1', model: 'm' },
      { type: 'reasoning_delta', turn_id: 't1', text: 'Let me ', seq: 2, at },
      { type: 'reasoning_delta', turn_id: 't1', text: 'see.', seq: 3, at },
    ];
    expect(messagesOf(live)).toEqual([
      { kind: 'thinking', id: 'thinking:t1:2', turn_id: 't1', text: 'Let me see.', streaming: true, started_at: at },
    ]);
    const done = messagesOf([...live, { type: 'reasoning', turn_id: 't1', text: 'Let me see.', duration_ms: 1500 }]);
    expect(done).toMatchObject([{ kind: 'thinking', text: 'Let me see.', streaming: false, duration_ms: 1500 }]);
  });

  it('replays the durable event alone as the same finished block, and a second phase as a second block', () => {
    const replayed = messagesOf([
      { type: 'reasoning', turn_id: 't1', text: 'One.', duration_ms: 10, seq: 4 },
      { type: 'reasoning', turn_id: 't1', text: 'Two.', duration_ms: 20, seq: 9 },
    ]);
    expect(replayed.map((entry) => entry.kind === 'thinking' && [entry.text, entry.streaming])).toEqual([
      ['One.', false],
      ['Two.', false],
    ]);
  });

  it('stops a block the turn ended mid-stream from showing as live', () => {
    const entries = messagesOf([
      { type: 'reasoning_delta', turn_id: 't1', text: 'Half', seq: 2 },
      { type: 'turn_failed', turn_id: 't1', error: 'Stopped by the user.', aborted: true },
    ]);
    expect(entries[0]).toMatchObject({ kind: 'thinking', text: 'Half', streaming: false });
  });

  it('is open while it streams, folds to its duration once done, and its button opens it again', () => {
    const entry = { kind: 'thinking', id: 'x', turn_id: 't1', text: 'Because.', streaming: true } as const;
    const { rerender } = render(<ThinkingBlock message={entry} />);
    expect(screen.getByTestId('thinking-text').textContent).toBe('Because.');
    expect(screen.getByTestId('thinking-toggle').textContent).toContain('Thinking…');

    rerender(<ThinkingBlock message={{ ...entry, streaming: false, duration_ms: 2400 }} />);
    expect(screen.queryByTestId('thinking-text')).toBeNull();
    expect(screen.getByTestId('thinking-time').textContent).toBe('2.4 s');
    const toggle = screen.getByTestId('thinking-toggle');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    act(() => fireEvent.click(toggle));
    expect(screen.getByTestId('thinking-text').textContent).toBe('Because.');
  });
});

describe('context cards', () => {
  const base = { kind: 'context', id: 'c', turn_id: 't1', source: 'AGENTS.md', change: 'loaded' } as const;

  it('shows a well-formed instructions document as a tree with its source', () => {
    render(
      <ContextCard message={{ ...base, text: '<instructions source="AGENTS.md">\nRun the tests.\n</instructions>' }} />,
    );
    expect(screen.getByTestId('context-source').textContent).toBe('AGENTS.md');
    expect(screen.getByTestId('xml-tree').textContent).toContain('instructions');
    expect(screen.getByTestId('xml-tree').textContent).toContain('source="AGENTS.md"');
    expect(screen.getByTestId('xml-tree').textContent).toContain('Run the tests.');
    expect(screen.queryByTestId('context-raw')).toBeNull();
  });

  it('keeps a malformed document as its raw text', () => {
    const text = '<instructions source="AGENTS.md">\nUse a < b and <b>bold\n</instructions>';
    render(<ContextCard message={{ ...base, text }} />);
    expect(screen.queryByTestId('xml-tree')).toBeNull();
    expect(screen.getByTestId('context-raw').textContent).toBe(text);
  });

  it('says when the file was edited, cut to the cap, or deleted', () => {
    const text = '<instructions source="AGENTS.md" status="changed">\nNew.\n</instructions>';
    const { rerender } = render(
      <ContextCard message={{ ...base, change: 'changed', text, truncated: { bytes: 50_000, limit: 32_768 } }} />,
    );
    expect(screen.getByTestId('context-notice').textContent).toMatch(/was edited: the model got the new version/);
    expect(screen.getByTestId('context-notice').textContent).toMatch(/Only the first 32.0 KiB of 48.8 KiB were sent/);
    rerender(<ContextCard message={{ ...base, change: 'removed', text: '<instructions/>' }} />);
    expect(screen.getByTestId('context-notice').textContent).toMatch(/was deleted/);
  });

  it('is a transcript row of its own, from the context_message event', () => {
    const entries = messagesOf([
      {
        type: 'context_message',
        turn_id: 't1',
        source: 'AGENTS.md',
        text: '<instructions/>',
        change: 'loaded',
        seq: 1,
      },
      { type: 'user_message', turn_id: 't1', text: 'Hi' },
    ]);
    expect(entries.map((entry) => entry.kind)).toEqual(['context', 'user']);
  });
});
