import { create } from 'zustand';
import type { RewindMode } from '../../protocol/rewind.ts';

// The panel's rewind state: the dialog open for a card or message, and a rewound message waiting
// for the composer. The cards rewinds leave come from the session's code_rewound events.

export interface RewindAsk {
  /** A call id, a turn id, or a checkpoint id (an undo). */
  target: string;
  mode: RewindMode;
  /** What the person pointed at, in words: "write_file notes.md", "your message". */
  what: string;
}

interface RewindState {
  asking: RewindAsk | null;
  /** The message the composer should hold next (a conversation rewind's). */
  draft: string | null;
  ask(ask: RewindAsk | null): void;
  setDraft(text: string | null): void;
}

export const useRewind = create<RewindState>((set) => ({
  asking: null,
  draft: null,
  ask: (asking) => set({ asking }),
  setDraft: (draft) => set({ draft }),
}));
