import { useEffect, useRef } from 'react';

// The list the message box completes from (slash commands, `@` paths): an ARIA listbox the box
// controls as a combobox, so a screen reader follows the active option while focus stays in the
// box. The keys live in the composer (↑/↓ move, Tab or Enter pick, Esc closes); a click picks too.

export const COMPLETION_LIST_ID = 'composer-completions';

export interface CompletionItem {
  id: string;
  label: string;
  /** The characters of `label` the query matched, for highlighting. */
  highlight?: readonly number[];
  detail?: string;
  /** A short tag after the label: `folder`, `workspace`, … */
  tag?: string;
}

export function optionId(index: number): string {
  return `${COMPLETION_LIST_ID}-${index}`;
}

interface Props {
  label: string;
  items: readonly CompletionItem[];
  active: number;
  /** Shown instead of the options when there are none (or while searching). */
  empty: string;
  onPick(index: number): void;
  onHover(index: number): void;
}

export function CompletionMenu({ label, items, active, empty, onPick, onHover }: Props) {
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    list.current?.querySelector(`#${optionId(active)}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, items]);
  return (
    <div className="completion-menu" data-testid="completion-menu">
      <ul ref={list} id={COMPLETION_LIST_ID} role="listbox" aria-label={label} className="completion-list">
        {items.map((item, index) => (
          <li
            key={item.id}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className="completion-option"
            data-testid="completion-option"
            // Keeps focus in the message box: the pick happens on click, the box never blurs.
            onMouseDown={(event) => event.preventDefault()}
            onMouseMove={() => (index === active ? undefined : onHover(index))}
            onClick={() => onPick(index)}
          >
            <span className="completion-label">{highlighted(item.label, item.highlight)}</span>
            {item.tag ? <span className="completion-tag">{item.tag}</span> : null}
            {item.detail ? <span className="completion-detail">{item.detail}</span> : null}
          </li>
        ))}
      </ul>
      {items.length === 0 ? (
        <p className="completion-empty" data-testid="completion-empty">
          {empty}
        </p>
      ) : null}
    </div>
  );
}

function highlighted(label: string, indexes: readonly number[] | undefined) {
  if (!indexes || indexes.length === 0) return label;
  const marked = new Set(indexes);
  const parts: { text: string; mark: boolean }[] = [];
  for (let index = 0; index < label.length; index += 1) {
    const mark = marked.has(index);
    const last = parts.at(-1);
    if (last && last.mark === mark) last.text += label[index];
    else parts.push({ text: label[index]!, mark });
  }
  return parts.map((part, index) =>
    part.mark ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>,
  );
}
