import { useEffect, useRef, type RefObject } from 'react';

// Keyboard focus must not fall to the page when the control under it goes away (a screen that
// closed, a question that was answered, a Stop that is no longer needed): a keyboard user would
// have to start again from the top. These put it on the control that naturally comes next, and
// only when it fell: a person who has moved focus elsewhere is left where they are.

/** Whether focus is on no control at all (the one it was on was removed or disabled). */
export function focusFell(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}

/**
 * After `key` changes (never on the first render), and when `when` holds, moves focus to `target`
 * if the change left it on nothing.
 */
export function useRefocusOnChange(key: unknown, target: RefObject<HTMLElement | null>, when = true): void {
  const previous = useRef(key);
  useEffect(() => {
    if (Object.is(previous.current, key)) return;
    previous.current = key;
    if (when && focusFell()) target.current?.focus();
  }, [key, target, when]);
}

/** The message box's element id: where focus goes back to after an answer, a stop or Esc. */
export const MESSAGE_BOX_ID = 'composer-input';

/** Puts focus in the message box (when it is on screen). */
export function focusMessageBox(): void {
  document.getElementById(MESSAGE_BOX_ID)?.focus();
}

/** Whether the person is typing: focus is in a text field that holds text. */
export function personIsWriting(): boolean {
  const active = document.activeElement;
  return (active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement) && active.value !== '';
}

const claimed = new Set<string>();

/**
 * True the first time it is asked for `key`, false after: a question that scrolls out of the
 * (virtualised) transcript and back is mounted again, and must not take focus a second time.
 */
export function claimFocusOnce(key: string): boolean {
  if (claimed.has(key)) return false;
  claimed.add(key);
  return true;
}

/** Gives a claim back, for a control that went away before it could take the focus. */
export function releaseFocusClaim(key: string): void {
  claimed.delete(key);
}

/**
 * Focuses `element` as soon as it can take focus: the virtualised transcript keeps a new row hidden
 * until it has measured it, and a hidden element refuses focus. Tries once a frame for about a
 * second, and gives up as soon as the person moves focus elsewhere or starts writing; takes nothing
 * from a control inside it that already has the focus. Returns what
 * cancels the remaining tries, which says whether any were left.
 */
export function focusWhenShown(element: HTMLElement, frames = 60): () => boolean {
  // The person is already inside it (tabbed to one of its buttons): the focus stays where they put it.
  if (element.contains(document.activeElement)) return () => false;
  const from = document.activeElement;
  let pending: number | null = null;
  const attempt = (left: number) => {
    pending = null;
    if (!element.isConnected || document.activeElement !== from || personIsWriting()) return;
    element.focus();
    if (document.activeElement !== element && left > 0) pending = requestAnimationFrame(() => attempt(left - 1));
  };
  attempt(frames);
  return () => {
    if (pending === null) return false;
    cancelAnimationFrame(pending);
    return true;
  };
}
