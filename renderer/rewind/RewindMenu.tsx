import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { RewindMode } from '../../protocol/rewind.ts';
import { usePanel } from '../store/store.ts';
import { useRewind } from './rewind-store.ts';

// "Rewind" on a card or a message of the person: a button that opens a small menu of the three
// rewinds. Keyboard: Enter or Space opens it on its first item, arrows move, Esc closes it and
// gives focus back to the button. A card whose code cannot be rewound (checkpoints were off, or its
// checkpoint was pruned) still lists the code rewinds, marked unavailable with the reason, so the
// person learns why instead of meeting an action that fails; the conversation rewind stays. A
// session only viewed here (another workspace's, or one another process writes) offers none.

const ITEMS: { mode: RewindMode; label: string; hint: string }[] = [
  { mode: 'code', label: 'Rewind code', hint: 'Files go back to before this' },
  { mode: 'conversation', label: 'Rewind conversation', hint: 'A new session from before this message' },
  { mode: 'both', label: 'Rewind both', hint: 'Files and conversation' },
];

export function RewindMenu({
  target,
  what,
  modes,
  unavailable,
}: {
  target: string;
  what: string;
  modes?: RewindMode[];
  /** Why the code cannot be rewound from here; absent: it can. */
  unavailable?: string;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const ask = useRewind((state) => state.ask);
  const id = useId();
  const items = ITEMS.filter((item) => !modes || modes.includes(item.mode));
  const viewOnly = usePanel((state) => state.viewOnly);

  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(menu.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      buttons[(at + step + buttons.length) % buttons.length]?.focus();
    } else if (event.key === 'Tab') {
      close(false);
    }
  };

  if (viewOnly) return null;
  return (
    <span className="rewind-menu">
      <button
        ref={button}
        type="button"
        className="icon-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={`Rewind to before ${what}`}
        title={unavailable ? `Rewind to before this (the code cannot be: ${unavailable})` : 'Rewind to before this'}
        data-testid="rewind-button"
        data-code={unavailable ? 'unavailable' : 'available'}
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true">↶</span>
        <span className="icon-button-label">Rewind</span>
      </button>
      {open ? (
        <div
          ref={menu}
          id={id}
          role="menu"
          className="rewind-menu-list"
          data-testid="rewind-menu"
          onKeyDown={onKeyDown}
        >
          {items.map((item) => {
            const off = unavailable !== undefined && item.mode !== 'conversation';
            return (
              <button
                key={item.mode}
                type="button"
                role="menuitem"
                className="rewind-menu-item"
                data-testid={`rewind-${item.mode}`}
                aria-disabled={off || undefined}
                onClick={() => {
                  if (off) return;
                  close(false);
                  ask({ target, mode: item.mode, what });
                }}
              >
                <span>{item.label}</span>
                <span className="rewind-menu-hint" data-testid={off ? 'rewind-unavailable' : undefined}>
                  {off ? `Not available: ${unavailable}` : item.hint}
                </span>
              </button>
            );
          })}
        </div>
      ) : null}
    </span>
  );
}
