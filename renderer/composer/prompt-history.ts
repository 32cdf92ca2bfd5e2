import { useEffect, useMemo, useRef, useState } from 'react';
import { withoutPrompt, withPrompt } from '../../protocol/prompt-history.ts';
import type { PanelActions } from '../actions.ts';
import { dropPagePrompts, pagePrompts } from './page-history.ts';

// The prompts sent from this workspace, for ↑/↓ in the message box. The host keeps them on disk
// (history:list / history:add / history:forget); the panel walks its copy, loaded when the
// workspace is known and changed at once as a prompt is sent or forgotten (Shift+Delete), then
// replaced by the host's answer, which has what other windows added too. What an older version
// kept in the page's storage is handed to the host first, once (page-history.ts).

export interface PromptHistory {
  /** The prompts, newest last, as they stand now. */
  prompts(): string[];
  /** Whether the host has answered with the history (or failed to). */
  loaded(): boolean;
  /** Resolves once it has. */
  whenLoaded(): Promise<void>;
  remember(prompt: string): void;
  forget(prompt: string): void;
}

export function usePromptHistory(actions: PanelActions, workspace: string): PromptHistory {
  const prompts = useRef<string[]>([]);
  // Each local change counts; an answer older than the newest change is not taken over it.
  const changes = useRef(0);
  const [loading] = useState(() => settlement());
  useEffect(() => {
    if (workspace === '') return;
    let live = true;
    const asked = changes.current;
    void listWithPagePrompts(actions, workspace).then((listed) => {
      if (!live) return;
      if (listed && asked === changes.current) prompts.current = listed;
      loading.settle();
    });
    return () => {
      live = false;
    };
  }, [actions, workspace, loading]);
  return useMemo(() => {
    const change = (next: string[], saved: Promise<string[] | null>) => {
      changes.current += 1;
      const made = changes.current;
      prompts.current = next;
      void saved.then((listed) => {
        if (listed && made === changes.current) prompts.current = listed;
      });
    };
    return {
      prompts: () => prompts.current,
      loaded: () => loading.settled,
      whenLoaded: () => loading.promise,
      remember: (prompt) => change(withPrompt(prompts.current, prompt), actions.rememberPrompt(prompt)),
      forget: (prompt) => change(withoutPrompt(prompts.current, prompt), actions.forgetPrompt(prompt)),
    };
  }, [actions, loading]);
}

/** The host's history, with what an older version left in the page's storage handed over first (once). */
async function listWithPagePrompts(actions: PanelActions, workspace: string): Promise<string[] | null> {
  const older = pagePrompts(workspace);
  if (older === null) return actions.promptHistory();
  if (older.length === 0) {
    dropPagePrompts(workspace);
    return actions.promptHistory();
  }
  const merged = await actions.importPrompts(older);
  if (merged === null) return actions.promptHistory();
  dropPagePrompts(workspace);
  return merged;
}

function settlement(): { promise: Promise<void>; settle(): void; settled: boolean } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  const made = {
    promise,
    settled: false,
    settle() {
      made.settled = true;
      resolve();
    },
  };
  return made;
}

/**
 * A walk through the history from the newest: `older` and `newer` give the prompt to show (`newer`
 * past the newest gives back what was in the box before the walk began), null when there is none.
 */
export class HistoryWalk {
  private index: number;
  private readonly prompts: string[];
  private readonly draft: string;

  constructor(prompts: readonly string[], draft: string) {
    this.prompts = [...prompts];
    this.index = this.prompts.length;
    this.draft = draft;
  }

  older(): string | null {
    if (this.index === 0) return null;
    this.index -= 1;
    return this.prompts[this.index] ?? null;
  }

  newer(): string | null {
    if (this.index >= this.prompts.length) return null;
    this.index += 1;
    return this.index === this.prompts.length ? this.draft : (this.prompts[this.index] ?? null);
  }

  /** Removes the prompt shown from the walk; the next older one (or the draft) shows instead. */
  forgetShown(): string | null {
    if (this.index >= this.prompts.length) return null;
    this.prompts.splice(this.index, 1);
    if (this.index > 0) this.index -= 1;
    return this.prompts[this.index] ?? this.draft;
  }

  get shown(): string | null {
    return this.index < this.prompts.length ? (this.prompts[this.index] ?? null) : null;
  }
}
