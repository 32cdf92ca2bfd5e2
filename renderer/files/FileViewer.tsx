import { useEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import type { Result } from '../../protocol/api.ts';
import type { FileView } from '../../protocol/files.ts';
import { READ_PAGE_LINES } from '../../protocol/tools.ts';
import { useActions } from '../actions.ts';
import { CodeLine, splitLines } from '../cards/CodeLines.tsx';
import { basename } from '../cards/decode.ts';
import { languageFor } from '../cards/highlight.ts';
import { useHighlight } from '../cards/use-highlight.ts';
import { VirtualLines } from '../cards/VirtualLines.tsx';
import { usePanel } from '../store/store.ts';
import { SafeText } from '../text/SafeText.tsx';
import type { FileViewerTarget } from './viewer-slice.ts';

// The read card a file link opens, over the transcript: a page of the file as it is now (read by the
// panel host, never by the model), scrolled to the line and marking it, with earlier and later pages
// a button away. Esc or Close puts focus back on the link that opened it.

/** Lines read before the target line, so it is seen with what leads to it. */
const LINES_BEFORE = 200;

export function FileViewer() {
  const target = usePanel((state) => state.fileViewer);
  if (!target) return null;
  return <FileViewerDialog key={`${target.path}:${target.line ?? ''}`} target={target} />;
}

function firstLineFor(line: number | undefined): number {
  return Math.max(1, (line ?? 1) - LINES_BEFORE);
}

function FileViewerDialog({ target }: { target: FileViewerTarget }) {
  const actions = useActions();
  const close = usePanel((state) => state.closeFileViewer);
  const [offset, setOffset] = useState(() => firstLineFor(target.line));
  const [page, setPage] = useState<Result<FileView> | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  // The link that opened the viewer gets the focus back when it closes.
  const opener = useRef<Element | null>(typeof document === 'undefined' ? null : document.activeElement);

  useEffect(() => {
    dialog.current?.focus();
    const previous = opener.current;
    return () => {
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus();
    };
  }, []);

  useEffect(() => {
    let live = true;
    setPage(null);
    void actions.readFile(target.path, offset, READ_PAGE_LINES).then((read) => {
      if (!live) return;
      // A line past the end (the file got shorter): the file from its start, which says it has no such line.
      if (!read.ok && offset > 1 && offset === firstLineFor(target.line)) setOffset(1);
      else setPage(read);
    });
    return () => {
      live = false;
    };
  }, [actions, target.path, offset]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Tab') {
      keepTabInside(event);
      return;
    }
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    close();
  };

  const view = page?.ok ? page.value : null;
  return (
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) close();
      }}
    >
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby="file-viewer-title"
        className="file-viewer card"
        data-testid="file-viewer"
        data-path={target.path}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="card-header file-viewer-header">
          <span className="card-title">read</span>
          <h2 id="file-viewer-title" className="file-viewer-title" data-testid="file-viewer-path">
            <SafeText text={view?.path ?? target.path} />
          </h2>
          <span className="card-spacer" />
          <button type="button" className="button small" data-testid="file-viewer-close" onClick={close}>
            Close
          </button>
        </header>
        <div className="card-body">
          {page === null ? <p className="card-note">Reading…</p> : null}
          {page && !page.ok ? (
            <p className="card-error" role="alert" data-testid="file-viewer-error">
              <SafeText text={page.error} />
            </p>
          ) : null}
          {view ? <FilePage view={view} line={target.line} onOffset={setOffset} /> : null}
        </div>
      </div>
    </div>
  );
}

const FOCUSABLE = 'button:not(:disabled), [tabindex="0"]';

/** The viewer is modal: Tab and Shift+Tab go round its own controls, never to the page behind it. */
function keepTabInside(event: KeyboardEvent<HTMLDivElement>): void {
  // In document order (some DOM implementations group a selector list's matches by selector).
  const stops = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].sort((a, b) =>
    a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1,
  );
  const first = stops[0];
  const last = stops.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === event.currentTarget)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

function FilePage({
  view,
  line,
  onOffset,
}: {
  view: FileView;
  line: number | undefined;
  onOffset: (offset: number) => void;
}) {
  const { start, end } = view.range;
  const lines = useMemo(() => (end < start ? [] : splitLines(view.content)), [view.content, start, end]);
  const tokens = useHighlight(view.content, languageFor(basename(view.path)));
  const marked = line !== undefined && line >= start && line <= end ? line - start : undefined;
  const width = String(end).length;
  const style = { '--line-number-width': `${width}ch` } as CSSProperties;
  const earlier = Math.max(1, start - READ_PAGE_LINES);
  return (
    <div className="read-file">
      <p className="card-meta" data-testid="file-viewer-range">
        {end < start ? 'No lines' : `Lines ${start}–${end}`} of {view.total_lines} · the file as it is now
        {line !== undefined && line > view.total_lines ? ` · it has no line ${line}` : ''}
      </p>
      {start > 1 ? (
        <button
          type="button"
          className="link-button"
          data-testid="file-viewer-earlier"
          onClick={() => onOffset(earlier)}
        >
          Earlier lines ({earlier}–{start - 1})
        </button>
      ) : null}
      {lines.length > 0 ? (
        <VirtualLines
          count={lines.length}
          renderLine={(index) => (
            <CodeLine
              key={index}
              number={start + index}
              line={lines[index] ?? ''}
              tokens={tokens?.[index]}
              marked={index === marked}
            />
          )}
          label={`Content of ${basename(view.path)}`}
          testId="file-viewer-lines"
          className="file-viewer-lines"
          style={style}
          {...(marked === undefined ? {} : { initialLine: marked })}
        />
      ) : null}
      {view.truncated ? (
        <button type="button" className="link-button" data-testid="file-viewer-later" onClick={() => onOffset(end + 1)}>
          Later lines (from {end + 1})
        </button>
      ) : null}
    </div>
  );
}
