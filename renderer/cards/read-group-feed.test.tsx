// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { TranscriptScroller } from '../transcript/scroller-context.ts';
import { ReadGroupCard } from './ReadGroupCard.tsx';
import { readEvents } from '../../test/read-events.ts';

// An opened read group is a feed of its calls' cards: a large one draws only the cards near the view
// (in the transcript's scroller), each card says its place in the group to a screen reader, Page
// Down / Page Up and Tab reach every card whether drawn or not, and the focus on a card the list
// drops comes back to the same control when the card is drawn again.

// jsdom lays nothing out, so it has no ResizeObserver: the list takes its sizes from VirtuosoMockContext.
class NoResizes {
  observe() {}
  unobserve() {}
  disconnect() {}
}

beforeEach(() => vi.stubGlobal('ResizeObserver', NoResizes));

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
  usePanel.getState().clearTranscript();
  vi.unstubAllGlobals();
});

const noActions = new Proxy({} as PanelActions, { get: () => async () => undefined });

function reads(count: number): string[] {
  const { ids, events } = readEvents(
    count,
    (index) => `export const a${index} = 1;\nexport const b${index} = 2;\nexport const c${index} = 3;\n`,
  );
  usePanel.getState().applyEvents(events);
  return ids;
}

/** The group in a scroller of 800 px where every card is 200 px tall (jsdom lays nothing out). */
function renderGroup(ids: string[]) {
  const scroller = document.createElement('div');
  document.body.append(scroller);
  const view = { scroller, stopFollowing: () => undefined };
  render(
    <ActionsContext.Provider value={noActions}>
      <TranscriptScroller.Provider value={view}>
        <VirtuosoMockContext.Provider value={{ viewportHeight: 800, itemHeight: 200 }}>
          <ReadGroupCard id={ids[0]!} ids={ids} />
        </VirtuosoMockContext.Provider>
      </TranscriptScroller.Provider>
    </ActionsContext.Provider>,
  );
  // A group is remembered open (by its first call) once opened.
  const toggle = screen.getByTestId('read-group-toggle');
  if (toggle.getAttribute('aria-expanded') !== 'true') fireEvent.click(toggle);
  return scroller;
}

const drawnCards = () => screen.queryAllByTestId('tool-card');
const cardOf = (index: number) => document.querySelector<HTMLElement>(`[data-call-id="read-${index}"]`);
const focusedCard = () => document.activeElement?.closest<HTMLElement>('[data-testid="tool-card"]') ?? null;

describe('an opened read group of many calls', () => {
  it('draws a bounded number of its cards, each with its place in the feed', () => {
    const ids = reads(249);
    renderGroup(ids);
    const feed = screen.getByRole('feed');
    expect(feed.getAttribute('aria-label')).toBe('Read 249 files: each call’s card');
    const cards = drawnCards();
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.length).toBeLessThan(15);
    expect(cards[0]?.getAttribute('aria-posinset')).toBe('1');
    expect(cards.every((card) => card.getAttribute('aria-setsize') === '249')).toBe(true);
    expect(cards.map((card) => card.getAttribute('aria-posinset'))).toEqual(
      cards.map((_card, index) => String(index + 1)),
    );
  });

  // jsdom scrolls nothing itself: where the list asks the scroller to bring a card in, the test
  // scrolls it there, as the browser does.
  const scrollTo = (scroller: HTMLElement, index: number) =>
    act(() => {
      scroller.scrollTop = index * 200;
      scroller.dispatchEvent(new Event('scroll'));
    });

  it('Page Down moves the focus card by card, and a card not drawn yet takes it once drawn', async () => {
    const ids = reads(249);
    const scroller = renderGroup(ids);
    cardOf(0)!.focus();
    const drawn = drawnCards().length;
    for (let index = 1; index < drawn; index += 1) {
      fireEvent.keyDown(document.activeElement!, { key: 'PageDown' });
      expect(focusedCard()?.getAttribute('aria-posinset')).toBe(String(index + 1));
    }
    fireEvent.keyDown(document.activeElement!, { key: 'PageDown' });
    expect(cardOf(drawn)).toBeNull();
    scrollTo(scroller, drawn);
    await waitFor(() => expect(focusedCard()?.dataset['callId']).toBe(`read-${drawn}`));
    expect(drawnCards().length).toBeLessThan(15);
    fireEvent.keyDown(document.activeElement!, { key: 'PageUp' });
    expect(focusedCard()?.dataset['callId']).toBe(`read-${drawn - 1}`);
  });

  it('moves the focus at once and brings the card into view on the next frame, apart from the key press', async () => {
    const scrolled: Element[] = [];
    // jsdom scrolls nothing and has no scrollIntoView: record where the view is asked to go.
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    try {
      renderGroup(reads(249));
      cardOf(0)!.focus();
      fireEvent.keyDown(document.activeElement!, { key: 'PageDown' });
      expect(focusedCard()?.dataset['callId']).toBe('read-1');
      expect(scrolled).toEqual([]);
      await waitFor(() => expect(scrolled).toEqual([cardOf(1)]));
    } finally {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });

  it('counts Page Down presses made while a card is still being drawn from that card', async () => {
    const ids = reads(249);
    const scroller = renderGroup(ids);
    const drawn = drawnCards().length;
    cardOf(drawn - 1)!.focus();
    fireEvent.keyDown(document.activeElement!, { key: 'PageDown' });
    fireEvent.keyDown(document.activeElement!, { key: 'PageDown' });
    fireEvent.keyDown(document.activeElement!, { key: 'PageDown' });
    scrollTo(scroller, drawn + 2);
    await waitFor(() => expect(focusedCard()?.dataset['callId']).toBe(`read-${drawn + 2}`));
  });

  it('Tab past a card’s last control goes on into the next card even when it is not drawn yet', async () => {
    const ids = reads(249);
    const scroller = renderGroup(ids);
    const drawn = drawnCards().length;
    const controls = cardOf(drawn - 1)!.querySelectorAll<HTMLElement>('button');
    const last = controls[controls.length - 1]!;
    last.focus();
    expect(cardOf(drawn)).toBeNull();
    const tab = fireEvent.keyDown(last, { key: 'Tab' });
    expect(tab).toBe(false);
    scrollTo(scroller, drawn);
    await waitFor(() => expect(focusedCard()?.dataset['callId']).toBe(`read-${drawn}`));
    expect(document.activeElement?.tagName).toBe('BUTTON');
    // Within the drawn cards Tab is the browser's own.
    const first = drawnCards()[0]!.querySelector<HTMLElement>('button')!;
    first.focus();
    expect(fireEvent.keyDown(first, { key: 'Tab' })).toBe(true);
  });

  it('keeps the focus of a card the list drops on the feed, and gives it back to the same control', async () => {
    const ids = reads(249);
    const scroller = renderGroup(ids);
    const button = cardOf(1)!.querySelector<HTMLElement>('[data-testid="full-content-button"]')!;
    button.focus();
    scrollTo(scroller, 100);
    await waitFor(() => expect(cardOf(1)).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('feed'));
    scrollTo(scroller, 0);
    await waitFor(() => expect(cardOf(1)).not.toBeNull());
    expect(document.activeElement).toBe(cardOf(1)!.querySelector('[data-testid="full-content-button"]'));
  });

  it('Page Down from the feed, while its card is away, goes on from that card', async () => {
    const ids = reads(249);
    const scroller = renderGroup(ids);
    cardOf(2)!.focus();
    scrollTo(scroller, 100);
    await waitFor(() => expect(cardOf(2)).toBeNull());
    fireEvent.keyDown(screen.getByRole('feed'), { key: 'PageDown' });
    scrollTo(scroller, 3);
    await waitFor(() => expect(focusedCard()?.dataset['callId']).toBe('read-3'));
  });
});

describe('an opened small group', () => {
  it('draws every card, and moves through them with Page Down, Page Up and Ctrl+Home', () => {
    const ids = reads(5);
    renderGroup(ids);
    expect(drawnCards()).toHaveLength(5);
    cardOf(0)!.focus();
    fireEvent.keyDown(document.activeElement!, { key: 'PageDown' });
    fireEvent.keyDown(document.activeElement!, { key: 'PageDown' });
    expect(focusedCard()?.getAttribute('aria-posinset')).toBe('3');
    fireEvent.keyDown(document.activeElement!, { key: 'PageUp' });
    expect(focusedCard()?.getAttribute('aria-posinset')).toBe('2');
    // Past the last card nothing moves.
    cardOf(4)!.focus();
    fireEvent.keyDown(document.activeElement!, { key: 'PageDown' });
    expect(focusedCard()?.getAttribute('aria-posinset')).toBe('5');
    fireEvent.keyDown(document.activeElement!, { key: 'Home', ctrlKey: true });
    expect(document.activeElement).toBe(screen.getByTestId('read-group-toggle'));
  });

  it('leaves Page Down to a box of code that scrolls', () => {
    const ids = reads(3);
    renderGroup(ids);
    const code = cardOf(0)!.querySelector<HTMLElement>('.code')!;
    code.tabIndex = 0;
    code.focus();
    fireEvent.keyDown(code, { key: 'PageDown' });
    expect(document.activeElement).toBe(code);
  });
});
