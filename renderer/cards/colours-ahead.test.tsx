// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readEvents } from '../../test/read-events.ts';
import { placesAhead } from './colours-ahead.ts';

// A read group has the code of the cards the person reaches next highlighted while the page is
// idle — a folded group its first cards, an open one those just past the cards drawn — and gives
// those requests up when the cards are left behind or the group leaves the page. jsdom has no
// Worker: the one here records what the page posts, as the highlighting worker receives it.

class RecordingWorker extends EventTarget {
  static posted: unknown[] = [];
  postMessage(message: unknown) {
    RecordingWorker.posted.push(message);
  }
  terminate() {}
}

class NoResizes {
  observe() {}
  unobserve() {}
  disconnect() {}
}

beforeEach(() => {
  RecordingWorker.posted = [];
  vi.stubGlobal('Worker', RecordingWorker);
  vi.stubGlobal('ResizeObserver', NoResizes);
  vi.resetModules();
});

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
  vi.unstubAllGlobals();
});

/** The code of read `index`, as its card highlights it. */
const codeOf = (index: number) => `export const a${index} = 1;\nexport const b${index} = 2;`;

const requested = () =>
  RecordingWorker.posted.flatMap((message) =>
    typeof message === 'object' && message !== null && 'code' in message
      ? [message as { id: number; code: string; ahead?: boolean }]
      : [],
  );
const cancelled = () =>
  RecordingWorker.posted.flatMap((message) =>
    typeof message === 'object' && message !== null && 'cancel' in message
      ? [(message as { cancel: number }).cancel]
      : [],
  );
const idOf = (index: number) => requested().find((request) => request.code === codeOf(index))?.id;

/** A group of `count` reads of TypeScript files in a scroller of 800 px whose cards are 200 px tall. */
async function renderGroup(count: number) {
  const [{ usePanel }, { ReadGroupCard }, { TranscriptScroller }, { ActionsContext }] = await Promise.all([
    import('../store/store.ts'),
    import('./ReadGroupCard.tsx'),
    import('../transcript/scroller-context.ts'),
    import('../actions.ts'),
  ]);
  const { ids, events } = readEvents(count, (index) => `${codeOf(index)}\n`);
  usePanel.getState().clearTranscript();
  usePanel.getState().applyEvents(events);
  const scroller = document.createElement('div');
  document.body.append(scroller);
  const actions = new Proxy({}, { get: () => async () => undefined }) as never;
  const view = render(
    <ActionsContext.Provider value={actions}>
      <TranscriptScroller.Provider value={{ scroller, stopFollowing: () => undefined }}>
        <VirtuosoMockContext.Provider value={{ viewportHeight: 800, itemHeight: 200 }}>
          <ReadGroupCard id={`folded-${count}`} ids={ids} />
        </VirtuosoMockContext.Provider>
      </TranscriptScroller.Provider>
    </ActionsContext.Provider>,
  );
  return { view, scroller };
}

describe('the places coloured ahead', () => {
  it('are the first cards of a folded group', () => {
    expect(placesAhead(0, -1, 249)).toEqual([0, 1, 2]);
  });

  it('are the next cards past the drawn ones, nearest first, then the one before them, within the group', () => {
    expect(placesAhead(10, 14, 249)).toEqual([15, 16, 17, 9]);
    expect(placesAhead(0, 4, 249)).toEqual([5, 6, 7]);
    expect(placesAhead(245, 247, 249)).toEqual([248, 244]);
    expect(placesAhead(0, 4, 5)).toEqual([]);
  });
});

describe('a read group', () => {
  it('has its first cards highlighted as soon as it is drawn folded, and gives them up when it leaves the page', async () => {
    const { view } = await renderGroup(60);
    // At once, not when the page is next idle: the worker starts on the language meanwhile.
    expect(requested().map((request) => request.code)).toEqual([codeOf(0), codeOf(1), codeOf(2)]);
    // Behind the requests of the cards on screen.
    expect(requested().every((request) => request.ahead === true)).toBe(true);
    view.unmount();
    expect(cancelled().sort()).toEqual([idOf(0), idOf(1), idOf(2)].sort());
  });

  it('once open, has the cards just past the drawn ones highlighted, and gives up those left behind', async () => {
    const { view, scroller } = await renderGroup(60);
    fireEvent.click(view.getByTestId('read-group-toggle'));
    const drawn = view.getAllByTestId('tool-card').length;
    await waitFor(() => expect(idOf(drawn + 2)).toBeDefined());
    expect(idOf(drawn + 3)).toBeUndefined();
    expect(idOf(40)).toBeUndefined();
    // The list moves on to cards 30…: the cards ahead of the first drawn ones are given up.
    act(() => {
      scroller.scrollTop = 30 * 200;
      scroller.dispatchEvent(new Event('scroll'));
    });
    await waitFor(() => expect(cancelled()).toContain(idOf(drawn + 2)));
    const last = Math.max(
      ...view.getAllByTestId('tool-card').map((card) => Number(card.getAttribute('aria-posinset')) - 1),
    );
    expect(last).toBeGreaterThan(30);
    await waitFor(() => expect(idOf(last + 3)).toBeDefined());
  });
});
