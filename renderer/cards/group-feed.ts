import { createContext, useCallback, useMemo, useRef, type KeyboardEvent, type RefObject } from 'react';
import type { VirtuosoHandle } from 'react-virtuoso';

// The keyboard through an opened read group, whose cards a large group draws only near the view
// (ReadGroupCard.tsx). The cards are a feed (WAI-ARIA's feed pattern): Page Down / Page Up move focus
// to the next / previous card (except in a box of code, which scrolls with them), Ctrl+Home to the
// group's header; Tab and Shift+Tab go on into the
// next / previous card even when it is not drawn yet. A card brought in this way is scrolled to
// and drawn first, then focused. When the card holding the focus is dropped by the list (the person
// scrolled it away), the focus waits on the feed itself, where these keys go on from that card, and
// returns to the same control when the card is drawn again.

const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Where in a card focus goes: the card itself, its first control or its last. */
export type FocusEdge = 'card' | 'first' | 'last';

/** The card that held the focus when the list dropped it, and which of its controls. */
interface Parked {
  index: number;
  /** The control's place among the card's focusable elements; -1: the card itself. */
  control: number;
}

export interface GroupFeed {
  /** How many cards the feed holds. */
  count: number;
  /** The feed's element: focus waits here while its card is away. */
  feed: RefObject<HTMLDivElement | null>;
  /** The virtualised list, when the group is large enough to have one. */
  list: RefObject<VirtuosoHandle | null>;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  /** Brings the card at `index` into the middle of the view (find's hit), drawing it first if need be. */
  reveal: (index: number) => void;
  /** A member card was drawn: give it the focus it is owed, if any. */
  drawn: (index: number, element: HTMLElement) => void;
  /** A member card is about to leave the DOM: keep the focus it holds. */
  leaving: (index: number, element: HTMLElement) => void;
}

export const GroupFeedContext = createContext<GroupFeed | null>(null);

function tabbables(member: HTMLElement): HTMLElement[] {
  return [...member.querySelectorAll<HTMLElement>(TABBABLE)];
}

function focusables(member: HTMLElement): HTMLElement[] {
  return [...member.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]')];
}

function cardOf(member: HTMLElement): HTMLElement | null {
  return member.querySelector<HTMLElement>('[data-testid="tool-card"]');
}

function focusIn(member: HTMLElement, edge: FocusEdge): void {
  const controls = tabbables(member);
  const control = edge === 'first' ? controls[0] : edge === 'last' ? controls.at(-1) : undefined;
  const target = control ?? cardOf(member) ?? member;
  // The focus moves at once and the view follows a frame later: the scroll makes the list draw the
  // next card, which then lands in a frame of its own instead of the key press's.
  target.focus({ preventScroll: true });
  requestAnimationFrame(() => {
    if (document.activeElement === target) target.scrollIntoView?.({ block: 'nearest' });
  });
}

const memberIndex = (element: Element | null): number | null => {
  const member = element?.closest<HTMLElement>('[data-member-index]');
  return member ? Number(member.dataset['memberIndex']) : null;
};

export function useGroupFeed(count: number, header: RefObject<HTMLElement | null>): GroupFeed {
  const feed = useRef<HTMLDivElement>(null);
  const list = useRef<VirtuosoHandle>(null);
  const owed = useRef<{ index: number; edge: FocusEdge } | null>(null);
  const parked = useRef<Parked | null>(null);

  const memberAt = useCallback(
    (index: number) => feed.current?.querySelector<HTMLElement>(`[data-member-index="${index}"]`) ?? null,
    [],
  );

  const moveTo = useCallback(
    (index: number, edge: FocusEdge) => {
      parked.current = null;
      const member = memberAt(index);
      if (member) {
        owed.current = null;
        focusIn(member, edge);
        return;
      }
      // Not drawn: the list scrolls to it, and the card takes the focus as it is drawn.
      owed.current = { index, edge };
      list.current?.scrollToIndex({ index, align: 'start' });
    },
    [memberAt],
  );

  const reveal = useCallback(
    (index: number) => {
      const member = memberAt(index);
      if (member) member.scrollIntoView({ block: 'center' });
      else list.current?.scrollToIndex({ index, align: 'center' });
    },
    [memberAt],
  );

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      const target = event.target as HTMLElement;
      const onFeed = target === feed.current;
      const index = onFeed ? parked.current?.index : memberIndex(target);
      if (index === null || index === undefined) return;
      const go = (next: number, edge: FocusEdge) => {
        event.preventDefault();
        if (next >= 0 && next < count) moveTo(next, edge);
      };
      if (event.key === 'Home' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        parked.current = null;
        header.current?.focus();
        return;
      }
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      // A box of code (or a field) that scrolls keeps Page Down / Page Up for itself.
      const scrolls = target.closest('.code, textarea, input, select') !== null;
      // Presses made while a card is still being drawn count from that card, so none is lost.
      const from = owed.current?.index ?? index;
      if (event.key === 'PageDown' && !scrolls) return go(from + 1, 'card');
      if (event.key === 'PageUp' && !scrolls) return go(from - 1, 'card');
      if (event.key !== 'Tab') return;
      if (onFeed) return go(index, event.shiftKey ? 'last' : 'first');
      // Tab past a card's last control (Shift+Tab before its first) into a neighbour not drawn yet.
      const member = target.closest<HTMLElement>('[data-member-index]');
      if (!member) return;
      const controls = tabbables(member);
      const next = index + (event.shiftKey ? -1 : 1);
      const atEdge = event.shiftKey
        ? target === cardOf(member) || target === controls[0]
        : controls.length === 0 || target === controls.at(-1);
      if (atEdge && next >= 0 && next < count && !memberAt(next)) go(next, event.shiftKey ? 'last' : 'first');
    },
    [count, header, memberAt, moveTo],
  );

  const drawn = useCallback((index: number, element: HTMLElement) => {
    const debt = owed.current;
    if (debt?.index === index) {
      owed.current = null;
      focusIn(element, debt.edge);
      return;
    }
    const kept = parked.current;
    if (kept?.index !== index) return;
    parked.current = null;
    // Only while the focus still waits on the feed: a person who moved it elsewhere keeps it there.
    if (document.activeElement !== feed.current) return;
    const control = kept.control >= 0 ? focusables(element)[kept.control] : undefined;
    (control ?? cardOf(element) ?? element).focus({ preventScroll: true });
  }, []);

  const leaving = useCallback((index: number, element: HTMLElement) => {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || !element.contains(active)) return;
    parked.current = { index, control: focusables(element).indexOf(active) };
    feed.current?.focus({ preventScroll: true });
  }, []);

  return useMemo(
    () => ({ count, feed, list, reveal, onKeyDown, drawn, leaving }),
    [count, reveal, onKeyDown, drawn, leaving],
  );
}
