import type { ToolCallView } from '../store/transcript-types.ts';

// Subtitles stay basenames (the file cards' rule), but when two cards of the transcript show the
// same basename for different paths, each also shows its parent folder, dimmed, to tell them apart.

type Calls = Record<string, ToolCallView>;

/** basename → the distinct paths shown under it; rebuilt once per change of the calls map. */
const indexes = new WeakMap<Calls, Map<string, Set<string>>>();

function pathsByBasename(calls: Calls): Map<string, Set<string>> {
  const cached = indexes.get(calls);
  if (cached) return cached;
  const index = new Map<string, Set<string>>();
  for (const call of Object.values(calls)) {
    const { subtitle, path } = call.description ?? {};
    if (!subtitle || !path) continue;
    const paths = index.get(subtitle) ?? new Set<string>();
    paths.add(path);
    index.set(subtitle, paths);
  }
  indexes.set(calls, index);
  return index;
}

/** The folder a path lies in, `/`-separated (`src/a` for `src/a/app.ts`); '' at the top. */
export function parentFolder(path: string): string {
  const trimmed = path.replace(/[/\\]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return cut < 0 ? '' : trimmed.slice(0, cut);
}

/**
 * The parent folder to show beside this call's subtitle: only when another card shows the same
 * basename for a different path; null otherwise. `./` stands for the workspace's top folder.
 */
export function disambiguatingFolder(calls: Calls, call: ToolCallView): string | null {
  const { subtitle, path } = call.description ?? {};
  if (!subtitle || !path) return null;
  const paths = pathsByBasename(calls).get(subtitle);
  if (!paths || paths.size < 2) return null;
  return parentFolder(path) || '.';
}
