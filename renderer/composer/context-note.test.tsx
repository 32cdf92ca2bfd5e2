// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../protocol/api.ts';
import { usePanel } from '../store/store.ts';
import { ContextMeter } from './ContextMeter.tsx';
import { ContextNote } from './ContextNote.tsx';

// The context meter says in words when compaction is near, in a live region a screen reader
// announces, by the threshold in settings; the colour follows the same line.

const settings: Settings = {
  model: 'demo',
  effort: 'medium',
  permission_mode: 'ask',
  theme: 'system',
  keys: { anthropic: false, openai: false },
  missing_key: null,
  send_key: 'enter',
  updates_enabled: false,
};

afterEach(() => {
  cleanup();
  usePanel.getState().clearTranscript();
  usePanel.setState({ settings: null });
});

/** The provider's figure after a step: `percent` of a 200 000-token window. */
function stepAt(percent: number): void {
  const tokens = percent * 2_000;
  usePanel.getState().applyEvents([
    {
      type: 'step_usage',
      turn_id: 't1',
      model: 'anthropic:claude-sonnet-4-5',
      usage: { input_tokens: tokens - 100, output_tokens: 100 },
      context_tokens: tokens,
      context_window: 200_000,
      session_cost: 0,
    },
  ]);
}

function renderMeter(compactAt?: number | null): void {
  usePanel.setState({ settings: compactAt === undefined ? settings : { ...settings, compact_at_percent: compactAt } });
  render(
    <>
      <ContextNote />
      <ContextMeter />
    </>,
  );
}

describe('the context meter near compaction', () => {
  it('says "Compacts soon" in a live region, and on the meter itself, ten points before the threshold', () => {
    renderMeter();
    const region = screen.getByRole('status');
    act(() => stepAt(50));
    expect(region.textContent).toBe('');
    expect(screen.getByRole('meter').getAttribute('data-level')).toBe('low');

    act(() => stepAt(84));
    expect(region.textContent).toBe('Compacts soon: 84 % of 200k');
    expect(screen.getByRole('meter').getAttribute('aria-valuetext')).toBe('Compacts soon: 84 % of 200k');
    expect(screen.getByRole('meter').getAttribute('data-level')).toBe('high');
    expect(screen.getByTestId('context-note').getAttribute('title')).toContain('passes 85 % of the window');

    act(() => stepAt(87));
    expect(screen.getByTestId('context-note').textContent).toBe('Compacts before the next request: 87 % of 200k');
    expect(screen.getByTestId('context-note').getAttribute('data-level')).toBe('due');
  });

  it('follows the threshold in settings, and says how full the context is when compaction is off', () => {
    renderMeter(60);
    act(() => stepAt(55));
    expect(screen.getByTestId('context-note').textContent).toBe('Compacts soon: 55 % of 200k');
    cleanup();

    renderMeter(null);
    act(() => stepAt(70));
    expect(screen.queryByTestId('context-note')).toBeNull();
    act(() => stepAt(80));
    expect(screen.getByTestId('context-note').textContent).toBe('80 % of 200k used; automatic compaction is off');
    act(() => stepAt(104));
    expect(screen.getByTestId('context-note').textContent).toBe(
      'Over the window: 104 % of 200k; compacts before the next request',
    );
  });
});
