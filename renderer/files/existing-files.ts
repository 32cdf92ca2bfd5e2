import { useEffect, useSyncExternalStore } from 'react';
import { MAX_EXISTS_PATHS } from '../../protocol/files.ts';
import { useActions, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';

// Which paths named in the transcript are workspace files, asked of the panel host in batches (every
// reference rendered in the same moment goes in one request) and remembered for a while: a path that
// was missing may be created by the next call, so an answer older than STALE_MS is asked again.
// The files are those of the shown session's own workspace (the host answers for it), so what is
// known is kept per workspace: another workspace's session links its own files.

const STALE_MS = 10_000;

type Lookup = (paths: string[]) => Promise<string[] | null | undefined>;

export class FileExistence {
  private readonly known = new Map<string, { exists: boolean; at: number }>();
  private readonly waiting = new Set<string>();
  private readonly asking = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private scheduled = false;
  private readonly lookup: Lookup;
  private readonly now: () => number;

  constructor(lookup: Lookup, now: () => number = Date.now) {
    this.lookup = lookup;
    this.now = now;
  }

  /** True or false once known; undefined before the answer. */
  exists(path: string): boolean | undefined {
    return this.known.get(path)?.exists;
  }

  /** Asks about `path` unless a fresh answer is known or a question is out. */
  request(path: string): void {
    const known = this.known.get(path);
    if (known && this.now() - known.at < STALE_MS) return;
    if (this.asking.has(path) || this.waiting.has(path)) return;
    this.waiting.add(path);
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => void this.flush());
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private async flush(): Promise<void> {
    this.scheduled = false;
    const paths = [...this.waiting];
    this.waiting.clear();
    for (let first = 0; first < paths.length; first += MAX_EXISTS_PATHS) {
      const batch = paths.slice(first, first + MAX_EXISTS_PATHS);
      for (const path of batch) this.asking.add(path);
      const found = await Promise.resolve()
        .then(() => this.lookup(batch))
        .catch(() => null);
      for (const path of batch) this.asking.delete(path);
      // A failed question links nothing, and is asked again the next time the path is drawn.
      if (!found) continue;
      const files = new Set(found);
      const at = this.now();
      for (const path of batch) this.known.set(path, { exists: files.has(path), at });
      for (const listener of this.listeners) listener();
    }
  }
}

const byActions = new WeakMap<PanelActions, Map<string, FileExistence>>();

function existenceFor(actions: PanelActions, workspace: string): FileExistence {
  let byWorkspace = byActions.get(actions);
  if (!byWorkspace) {
    byWorkspace = new Map();
    byActions.set(actions, byWorkspace);
  }
  let existence = byWorkspace.get(workspace);
  if (!existence) {
    existence = new FileExistence((paths) => actions.existingFiles(paths));
    byWorkspace.set(workspace, existence);
  }
  return existence;
}

/** Whether `path` is a file of the shown session's workspace: undefined until the panel host has answered. */
export function useFileExists(path: string): boolean | undefined {
  const workspace = usePanel((state) => state.session?.workspace ?? state.workspace);
  const existence = existenceFor(useActions(), workspace);
  useEffect(() => existence.request(path), [existence, path]);
  return useSyncExternalStore(existence.subscribe, () => existence.exists(path));
}
