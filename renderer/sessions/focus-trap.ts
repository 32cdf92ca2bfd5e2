import { useEffect, type RefObject } from 'react';

// While the session list overlays the transcript (a narrow panel), Tab and Shift+Tab go round the
// list's own controls instead of reaching the page hidden under it; focus that lands outside is
// brought back. Closing the list gives the focus back to ☰ (app.tsx).

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The controls Tab reaches inside `root`, in order. */
export function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => !element.hidden && element.getAttribute('aria-hidden') !== 'true',
  );
}

/** Keeps Tab inside `container` while `active()` holds (checked at each key, so a resize counts). */
export function useFocusTrap(container: RefObject<HTMLElement | null>, active: () => boolean): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const root = container.current;
      if (event.key !== 'Tab' || !root || !active()) return;
      const controls = tabbables(root);
      const first = controls[0];
      const last = controls[controls.length - 1];
      if (!first || !last) return;
      const focused = document.activeElement;
      const inside = focused instanceof Node && root.contains(focused);
      if (event.shiftKey && (focused === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (focused === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    };
    const onFocusIn = (event: FocusEvent) => {
      const root = container.current;
      if (!root || !active() || !(event.target instanceof Node) || root.contains(event.target)) return;
      tabbables(root)[0]?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('focusin', onFocusIn);
    };
  }, [container, active]);
}
