import { useState } from 'react';

// Whether a long read or diff is expanded, kept outside the component: the virtualised transcript
// unmounts a card that scrolls far out of view and draws it again when it comes back, and a card the
// person opened should come back open. Keyed by what the card shows (two cards with the very same
// text share it), bounded to the most recent few hundred.

const KEEP = 500;
const expanded = new Set<string>();

/** A key for a card's text without hashing all of it: its length and both ends. */
export function expansionKey(kind: string, text: string): string {
  return `${kind}\u0000${text.length}\u0000${text.slice(0, 256)}\u0000${text.slice(-256)}`;
}

export function useRememberedExpansion(key: string): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => expanded.has(key));
  const set = (next: boolean) => {
    expanded.delete(key);
    if (next) expanded.add(key);
    if (expanded.size > KEEP) {
      const oldest = expanded.values().next();
      if (!oldest.done) expanded.delete(oldest.value);
    }
    setOpen(next);
  };
  return [open, set];
}
