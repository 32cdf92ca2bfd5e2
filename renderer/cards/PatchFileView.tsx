import { useCallback, useMemo, useRef, useState, type CSSProperties } from 'react';
import { patchEchoSchema, type EchoDiff } from '../../protocol/echo.ts';
import type { ToolCallView } from '../store/transcript-types.ts';
import { SafeText } from '../text/SafeText.tsx';
import { useScrollFocus } from './use-scroll-focus.ts';
import { diffRows, splitRows, type DiffRow, type DiffRowKind, type DiffStart } from './diff-model.ts';
import { FoldProvider, GapText, useDiffFolds } from './DiffFolds.tsx';
import { tailFold, type DiskSide } from './diff-folds.ts';
import { DiffSplit, RowText, SplitLine, SPLIT_MIN_WIDTH, useWideEnough, type RowColours } from './DiffSplit.tsx';
import { languageFor } from './highlight.ts';
import { useHighlight } from './use-highlight.ts';
import { decodeEcho } from './echo.ts';
import { CopyLines, ShowFewerTop, isEmptyText, TextBody } from './parts.tsx';
import { expansionKey, useRememberedExpansion } from './remembered-expansion.ts';
import { VirtualLines } from './VirtualLines.tsx';
import { ReviewOutcomeView } from '../review/ReviewOutcome.tsx';
import type { CardBodyProps, CardView } from './view.ts';

// The patch card: `+added −removed`, the diff coloured by line, or the
// error that kept the patch from applying. write_file's overwrite card shows its diff the same way.

const COLLAPSED_LINES = 80;

const SIGN: Record<DiffRowKind, string> = { file: '', gap: '', context: ' ', remove: '-', add: '+' };

function DiffRowLine({ row, width, colours }: { row: DiffRow; width: number; colours: RowColours | undefined }) {
  if (row.kind === 'file' || row.kind === 'gap') {
    return (
      <div className={`diff-line diff-${row.kind}`} data-kind={row.kind}>
        {row.kind === 'gap' ? <GapText row={row} /> : <SafeText text={row.text} />}
      </div>
    );
  }
  return (
    <div
      className={`diff-line diff-${row.kind}`}
      data-kind={row.kind}
      style={{ '--diff-no': `${width}ch` } as CSSProperties}
    >
      <span className="diff-no" aria-hidden="true">
        {row.oldNo ?? ''}
      </span>
      <span className="diff-no" aria-hidden="true">
        {row.newNo ?? ''}
      </span>
      <span className="diff-sign">{SIGN[row.kind]}</span>
      <span className="diff-text">
        <RowText row={row} colours={colours} />
      </span>
    </div>
  );
}

/** The rows' syntax colours in the language of the diff's file: each line highlighted as it reads. */
function useRowColours(rows: readonly DiffRow[]): RowColours | undefined {
  const file = rows.find((row) => row.kind === 'file');
  const language = file ? languageFor(file.text) : null;
  const lines = useMemo(() => rows.filter((row) => row.kind !== 'file' && row.kind !== 'gap'), [rows]);
  const text = useMemo(() => lines.map((row) => row.text).join('\n'), [lines]);
  const tokens = useHighlight(text, language);
  return useMemo(() => {
    if (!tokens) return undefined;
    return new Map(lines.map((row, index) => [row, tokens[index] ?? []]));
  }, [lines, tokens]);
}

/** The rows of an expanded long diff, scrolling inside the card with only those in view in the DOM. */
function VirtualDiff({
  rows,
  split,
  width,
  colours,
}: {
  rows: readonly DiffRow[];
  split: boolean;
  width: number;
  colours: RowColours | undefined;
}) {
  const pairs = useMemo(() => (split ? splitRows(rows) : null), [rows, split]);
  const style = { '--diff-no': `${width}ch` } as CSSProperties;
  if (pairs) {
    return (
      <VirtualLines
        count={pairs.length}
        renderLine={(index) => <SplitLine key={index} split={pairs[index]!} colours={colours} />}
        label="Diff, side by side"
        testId="patch-diff-split"
        className="diff diff-split"
        style={style}
      />
    );
  }
  return (
    <VirtualLines
      count={rows.length}
      renderLine={(index) => <DiffRowLine key={index} row={rows[index]!} width={width} colours={colours} />}
      label="Diff"
      testId="patch-diff"
      className="diff"
      style={style}
    />
  );
}

interface DiffLinesProps {
  diff: string;
  /** The workspace file the diff is of, when its text has no `---`/`+++` header naming it; its folds unfold from it. */
  path?: string | undefined;
  /** The diff's text stops before its end, so what follows its last line is no unchanged tail. */
  cut?: boolean;
  /** Where its first fold begins, for one hunk of several shown apart (the line after the hunk before it). */
  from?: DiffStart | undefined;
  /** The side of the diff the file on disk holds: `old` for a change not written yet. */
  side?: DiskSide;
}

export function DiffLines({ diff, path, cut = false, from, side = 'new' }: DiffLinesProps) {
  const [expanded, setExpanded] = useRememberedExpansion(expansionKey('diff', diff));
  const [sideBySide, setSideBySide] = useState(false);
  const frame = useRef<HTMLDivElement>(null);
  const wide = useWideEnough(frame, SPLIT_MIN_WIDTH);
  const parsed = useMemo(() => diffRows(diff, from), [diff, from]);
  const file = parsed.find((row) => row.kind === 'file')?.text ?? path ?? null;
  // The fold button pressed is gone once its lines are in: the focus stays in the diff.
  const keepFocus = useCallback(() => {
    setTimeout(() => {
      const focused = document.activeElement;
      if (!focused || focused === document.body) frame.current?.focus();
    }, 0);
  }, []);
  const tail = useMemo(() => (cut || file === null ? null : tailFold(parsed, true)), [parsed, cut, file]);
  const foldable = useMemo(() => (tail ? [...parsed, tail] : parsed), [parsed, tail]);
  const folds = useDiffFolds(foldable, file, keepFocus, side);
  const { control } = folds;
  // The rest of the file is offered below the diff, not as a row of it, until it is unfolded.
  const rows = useMemo(() => folds.rows.filter((row) => row !== tail), [folds.rows, tail]);
  const tailShown = tail !== null && control !== null && hiddenTail(folds.rows, tail);
  const hidden = expanded ? 0 : Math.max(0, rows.length - COLLAPSED_LINES);
  const visible = useMemo(() => (hidden > 0 ? rows.slice(0, COLLAPSED_LINES) : rows), [rows, hidden]);
  const width = String(rows.reduce((most, row) => Math.max(most, row.oldNo ?? 0, row.newNo ?? 0), 0)).length;
  const split = wide && sideBySide;
  const colours = useRowColours(visible);
  const scroll = useScrollFocus(visible);
  return (
    <FoldProvider value={control}>
      <div className="code-block" ref={frame} tabIndex={-1}>
        {wide ? (
          <button
            type="button"
            className="link-button diff-layout"
            data-testid="diff-layout"
            aria-pressed={sideBySide}
            onClick={() => setSideBySide(!sideBySide)}
          >
            {sideBySide ? 'Unified view' : 'Side-by-side view'}
          </button>
        ) : null}
        {expanded ? (
          <div className="code-tools">
            <ShowFewerTop onFold={() => setExpanded(false)} />
            <CopyLines text={diff} count={rows.length} />
          </div>
        ) : null}
        {expanded ? (
          <VirtualDiff rows={visible} split={split} width={width} colours={colours} />
        ) : split ? (
          <DiffSplit rows={splitRows(visible)} width={width} colours={colours} />
        ) : (
          <div
            ref={scroll.ref}
            className="code diff"
            role="region"
            aria-label="Diff"
            data-testid="patch-diff"
            tabIndex={scroll.tabIndex}
          >
            {visible.map((row, index) => (
              <DiffRowLine key={index} row={row} width={width} colours={colours} />
            ))}
          </div>
        )}
        {tailShown && hidden === 0 ? (
          <div className="diff-line diff-gap diff-tail" data-kind="gap">
            <GapText row={tail} />
          </div>
        ) : null}
        {hidden > 0 || expanded ? (
          <button type="button" className="link-button" onClick={() => setExpanded(!expanded)} aria-expanded={expanded}>
            {expanded ? 'Show fewer lines' : `Show the whole diff (${hidden} more lines)`}
          </button>
        ) : null}
      </div>
    </FoldProvider>
  );
}

/** Whether the tail fold is still folded (its row is still among the rows, not its lines). */
function hiddenTail(rows: readonly DiffRow[], tail: DiffRow): boolean {
  return rows.includes(tail);
}

/** `+added −removed`, the hunks when there are several, and the diff. */
export function DiffChange({ change }: { change: EchoDiff }) {
  return (
    <>
      <p className="card-meta" data-testid="patch-stats">
        <span className="stat-added">+{change.added}</span> <span className="stat-removed">−{change.removed}</span>
        {change.hunks > 1 ? <span className="stat-hunks"> · {change.hunks} hunks</span> : null}
        {change.cut ? <span className="stat-cut"> · diff cut</span> : null}
      </p>
      {change.diff.trim() === '' ? null : <DiffLines diff={change.diff} cut={change.cut === true} />}
    </>
  );
}

function PatchFileBody({ call }: CardBodyProps) {
  const patch = call.state === 'done' ? decodeEcho(call.echo, patchEchoSchema) : null;
  if (!patch) return <TextBody call={call} />;
  return (
    <div className="patch-file">
      {patch.review ? <ReviewOutcomeView review={patch.review} /> : null}
      <DiffChange change={patch} />
    </div>
  );
}

export const patchFileView: CardView = {
  name: 'patch-file',
  Body: PatchFileBody,
  isEmpty: (call: ToolCallView) => decodeEcho(call.echo, patchEchoSchema) === null && isEmptyText(call),
};
