import { create } from 'zustand';
import type { RewindDone, RewindMode } from '../../protocol/rewind.ts';

// The panel's rewind state: the dialog open for a card or message, the rewinds done in this
// window (each leaves a card that can undo it), and a rewound message waiting for the composer.

export interface RewindAsk {
  /** A call id, a turn id, or a checkpoint id (an undo). */
  target: string;
  mode: RewindMode;
  /** What the person pointed at, in words: "write_file notes.md", "your message". */
  what: string;
}

export interface RewindRecord {
  key: string;
  session: string;
  what: string;
  done: RewindDone;
  /** Set once it was undone: the card says so instead of offering it again. */
  undone?: boolean;
}

interface RewindState {
  asking: RewindAsk | null;
  records: RewindRecord[];
  /** The message the composer should hold next (a conversation rewind's). */
  draft: string | null;
  ask(ask: RewindAsk | null): void;
  add(record: RewindRecord): void;
  markUndone(key: string): void;
  setDraft(text: string | null): void;
}

export const useRewind = create<RewindState>((set) => ({
  asking: null,
  records: [],
  draft: null,
  ask: (asking) => set({ asking }),
  add: (record) => set((state) => ({ records: [...state.records, record] })),
  markUndone: (key) =>
    set((state) => ({
      records: state.records.map((entry) => (entry.key === key ? { ...entry, undone: true } : entry)),
    })),
  setDraft: (draft) => set({ draft }),
}));
