// @vitest-environment jsdom
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Cards that show the same content share one highlight request, and a request whose cards have all
// left the page (a virtualised list scrolled past them) is cancelled in the worker before it runs.
// jsdom has no Worker: the one here records what the page posts, as the real worker receives it.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.resetModules();
});

class RecordingWorker extends EventTarget {
  static posted: unknown[] = [];
  postMessage(message: unknown) {
    RecordingWorker.posted.push(message);
  }
  terminate() {}
}

async function withWorker() {
  RecordingWorker.posted = [];
  vi.stubGlobal('Worker', RecordingWorker);
  vi.resetModules();
  const { useHighlight, highlightsInFlight } = await import('./use-highlight.ts');
  function Probe({ code }: { code: string }) {
    const tokens = useHighlight(code, 'typescript');
    return <pre data-coloured={tokens ? 'yes' : 'no'}>{code}</pre>;
  }
  return { Probe, highlightsInFlight };
}

const requests = () =>
  RecordingWorker.posted.filter((message) => typeof message === 'object' && message !== null && 'code' in message);
const cancels = () =>
  RecordingWorker.posted.filter((message) => typeof message === 'object' && message !== null && 'cancel' in message);

describe('highlight requests', () => {
  it('are shared by the cards that show the same content', async () => {
    const { Probe, highlightsInFlight } = await withWorker();
    render(
      <>
        {Array.from({ length: 12 }, (_, index) => (
          <Probe key={index} code="export const same = 1;" />
        ))}
        <Probe code="export const other = 2;" />
      </>,
    );
    expect(requests()).toHaveLength(2);
    expect(highlightsInFlight()).toBe(2);
  });

  it('are cancelled when the last card that asked leaves before the answer, and only then', async () => {
    const { Probe, highlightsInFlight } = await withWorker();
    const both = render(
      <>
        <Probe code="export const gone = 1;" />
        <Probe code="export const gone = 1;" />
      </>,
    );
    both.rerender(<Probe code="export const gone = 1;" />);
    expect(cancels()).toHaveLength(0);
    both.unmount();
    const [request] = requests() as unknown as { id: number }[];
    expect(cancels()).toEqual([{ cancel: request?.id }]);
    expect(highlightsInFlight()).toBe(0);
  });

  it('made ahead of a card go after the drawn cards’ until a card asks for the same code', async () => {
    const { Probe } = await withWorker();
    const { prefetchHighlight } = await import('./use-highlight.ts');
    const release = prefetchHighlight('export const next = 1;', 'typescript');
    prefetchHighlight('export const later = 2;', 'typescript');
    const [next, later] = requests() as unknown as { id: number; ahead?: boolean }[];
    expect([next?.ahead, later?.ahead]).toEqual([true, true]);
    render(<Probe code="export const next = 1;" />);
    // The card shares the request made ahead, which now runs with the drawn cards'.
    expect(requests()).toHaveLength(2);
    expect(RecordingWorker.posted).toContainEqual({ hurry: next?.id });
    expect(RecordingWorker.posted).not.toContainEqual({ hurry: later?.id });
    release();
    expect(cancels()).toHaveLength(0);
  });

  it('without a worker still colour the cards, once for the same content', { timeout: 40_000 }, async () => {
    vi.resetModules();
    const { useHighlight } = await import('./use-highlight.ts');
    function Probe({ code }: { code: string }) {
      const tokens = useHighlight(code, 'typescript');
      return <pre data-coloured={tokens ? 'yes' : 'no'}>{code}</pre>;
    }
    const { container } = render(
      <>
        <Probe code="export const inPage = 1;" />
        <Probe code="export const inPage = 1;" />
      </>,
    );
    // The first highlight in a process loads shiki and compiles the grammar: seconds on a busy machine.
    await waitFor(
      () =>
        expect([...container.querySelectorAll('pre')].map((pre) => pre.dataset['coloured'])).toEqual(['yes', 'yes']),
      { timeout: 30_000 },
    );
  });
});
