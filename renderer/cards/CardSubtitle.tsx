import { useLayoutEffect, useState } from 'react';
import { FileLink } from '../files/FileLink.tsx';
import type { ToolCallView } from '../store/transcript-types.ts';
import { revealText } from '../text/safe-text.ts';
import { SafeText } from '../text/SafeText.tsx';
import type { CardView } from './view.ts';

// A card's subtitle in its header. A file's is its basename as a link (its parent folder beside it
// when another card shows the same basename; a read's lines when it read a part). Any other — a
// command, a search pattern, a program's first line — is cut to the header's width, and while it
// is cut it is a button that shows it whole (click, tap, Enter or Space): a tooltip alone cannot
// be reached from the keyboard or a touch screen.

/** Whether the element's text is wider than the element (cut by its ellipsis), followed as it resizes. */
function useCut(element: HTMLElement | null, text: string): boolean {
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    if (!element) return undefined;
    const measure = () => setCut(element.scrollWidth > element.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, text]);
  return cut;
}

function ExpandableSubtitle({ text }: { text: string }) {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [open, setOpen] = useState(false);
  const cut = useCut(element, text);
  if (!cut && !open) {
    return (
      <span ref={setElement} className="card-subtitle" data-testid="card-subtitle" title={revealText(text)}>
        <SafeText text={text} />
      </span>
    );
  }
  return (
    <button
      ref={setElement}
      type="button"
      className={`card-subtitle card-subtitle-toggle${open ? ' is-open' : ''}`}
      data-testid="card-subtitle"
      aria-expanded={open}
      title={open ? 'Show on one line' : revealText(text)}
      onClick={() => setOpen(!open)}
    >
      <SafeText text={text} />
    </button>
  );
}

export function CardSubtitle({
  call,
  view,
  folder,
}: {
  call: ToolCallView;
  view: CardView;
  /** The parent folder to show beside a basename another card shares; null: none. */
  folder: string | null;
}) {
  const subtitle = call.description?.subtitle ?? '';
  const path = call.description?.path;
  if (!subtitle) return null;
  if (!path) return <ExpandableSubtitle text={subtitle} />;
  const note = view.subtitleNote?.(call);
  return (
    <span className="card-subtitle" data-testid="card-subtitle" title={revealText(path)}>
      <FileLink path={path} line={view.fileLine?.(call)}>
        <SafeText text={subtitle} />
      </FileLink>
      {folder === null ? null : (
        <span className="card-subtitle-folder" data-testid="card-subtitle-folder">
          {' '}
          <SafeText text={`${folder}/`} />
        </span>
      )}
      {note ? (
        <span className="card-subtitle-note" data-testid="card-subtitle-note">
          {' '}
          {note}
        </span>
      ) : null}
    </span>
  );
}
