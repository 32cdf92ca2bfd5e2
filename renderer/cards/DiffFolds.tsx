import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import { ActionsContext } from '../actions.ts';
import { SafeText } from '../text/SafeText.tsx';
import { foldRead, unfold, withUnfolded, type DiskSide, type Unfolded } from './diff-folds.ts';
import type { DiffRow } from './diff-model.ts';

// "⋯ 40 unchanged lines" in a diff is a button: pressed (click, Enter or Space), the lines are read
// from the file as it is now (file:read, the panel's own read, no model call) and take its place.
// Only a diff that names its file can unfold; elsewhere the row stays a count.

type FoldState = { status: 'reading' } | { status: 'failed'; error: string } | { status: 'open'; unfolded: Unfolded };

interface FoldControl {
  state(row: DiffRow): FoldState | undefined;
  unfold(row: DiffRow): void;
}

const FoldContext = createContext<FoldControl | null>(null);

export const FoldProvider = FoldContext.Provider;

/** The diff's rows with the folds the person opened unfolded, and what the fold buttons call. */
export function useDiffFolds(
  rows: readonly DiffRow[],
  path: string | null,
  onUnfolded?: () => void,
  side: DiskSide = 'new',
): { rows: readonly DiffRow[]; control: FoldControl | null } {
  const actions = useContext(ActionsContext);
  const [states, setStates] = useState<ReadonlyMap<DiffRow, FoldState>>(new Map());
  const put = useCallback((row: DiffRow, state: FoldState) => setStates((last) => new Map(last).set(row, state)), []);
  const control = useMemo<FoldControl | null>(() => {
    if (!actions || path === null) return null;
    return {
      state: (row) => states.get(row),
      unfold: (row) => {
        const index = rows.indexOf(row);
        if (!row.fold || index < 0) return;
        put(row, { status: 'reading' });
        const { offset, limit } = foldRead(row.fold, side);
        void actions.readFile(path, offset, limit).then((page) => {
          if (!page.ok) {
            put(row, { status: 'failed', error: page.error });
            return;
          }
          put(row, { status: 'open', unfolded: unfold(rows, index, page.value, side) });
          onUnfolded?.();
        });
      },
    };
  }, [actions, path, rows, states, put, onUnfolded, side]);
  const opened = useMemo(() => {
    const open = new Map<DiffRow, Unfolded>();
    for (const [row, state] of states) if (state.status === 'open') open.set(row, state.unfolded);
    return open;
  }, [states]);
  const shown = useMemo(() => withUnfolded(rows, opened), [rows, opened]);
  return { rows: shown, control };
}

/** A gap row's content: the count, as a button that unfolds the lines when the diff can. */
export function GapText({ row }: { row: DiffRow }) {
  const control = useContext(FoldContext);
  if (!row.fold || !control) {
    return (
      <>
        {'⋯ '}
        <SafeText text={row.text} />
      </>
    );
  }
  const state = control.state(row);
  const reading = state?.status === 'reading';
  return (
    <>
      <button
        type="button"
        className="diff-fold"
        data-testid="diff-fold"
        aria-expanded={false}
        disabled={reading}
        title="Show these lines, from the file as it is now"
        onClick={() => control.unfold(row)}
      >
        ⋯ {reading ? `Reading ${row.text}…` : row.text}
      </button>
      {state?.status === 'failed' ? (
        <span className="diff-fold-error" role="alert" data-testid="diff-fold-error">
          {' '}
          <SafeText text={`Could not show them: ${state.error}`} />
        </span>
      ) : null}
    </>
  );
}
