// Find's part of the panel store: whether the bar is open, what it searches for, and the row it
// shows now, which the transcript scrolls to and marks.

export interface FindRow {
  /** The row's index in the transcript's order. */
  index: number;
  /** `kind:id`, the row's key in the transcript list. */
  key: string;
  /** Bumped on each step, so stepping back to the same row scrolls to it again. */
  step: number;
}

export interface FindSlice {
  findOpen: boolean;
  findQuery: string;
  findRow: FindRow | null;
  /** Bumped by Ctrl/Cmd+F while the bar is open: its box takes the focus again. */
  findFocusRequest: number;
  openFind(): void;
  closeFind(): void;
  setFindQuery(query: string): void;
  showFindRow(row: Omit<FindRow, 'step'> | null): void;
}

type FindSet = (partial: Partial<FindSlice> | ((state: FindSlice) => Partial<FindSlice>)) => void;

/** The slice, given the store's `set`. */
export const findSlice = (set: FindSet): FindSlice => ({
  findOpen: false,
  findQuery: '',
  findRow: null,
  findFocusRequest: 0,
  openFind: () => set((state) => ({ findOpen: true, findFocusRequest: state.findFocusRequest + 1 })),
  closeFind: () => set({ findOpen: false, findRow: null }),
  setFindQuery: (findQuery) => set({ findQuery }),
  showFindRow: (row) =>
    set((state) => ({ findRow: row === null ? null : { ...row, step: (state.findRow?.step ?? 0) + 1 } })),
});
