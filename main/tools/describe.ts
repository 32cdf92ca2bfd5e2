import path from 'node:path';
import type { CallDescription } from '../../protocol/echo.ts';
import { displayPath } from './workspace.ts';

// Descriptions the tools share: a call about one file or folder, and a call that runs a command.

/** The last segment of a path, `/` or `\` separated (a file card's subtitle); '' for none. */
export function basenameOf(requested: string): string {
  const trimmed = requested.replace(/[/\\]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return cut < 0 ? trimmed : trimmed.slice(cut + 1);
}

/** The path relative to the workspace, `/`-separated; as given when it lies outside (a spill file). */
export function workspacePath(workspace: string, requested: string): string {
  const relative = displayPath(workspace, path.resolve(workspace, requested));
  return relative.startsWith('../') || relative === '..' ? requested : relative;
}

/** A call about one path: `Read src/a.ts`, subtitle `a.ts`, the workspace-relative path as tooltip. */
export function pathDescription(
  title: string,
  requested: string | undefined,
  workspace: string,
  detail?: string,
): CallDescription {
  return {
    title,
    subtitle: requested === undefined ? '' : basenameOf(requested),
    ...(detail !== undefined ? { detail } : {}),
    ...(requested !== undefined ? { path: workspacePath(workspace, requested) } : {}),
  };
}

/** A call about a folder: as pathDescription, but the workspace itself is named in words, with no subtitle. */
export function folderDescription(
  verb: string,
  requested: string | undefined,
  workspace: string,
  detail?: string,
): CallDescription {
  if (requested === undefined || workspacePath(workspace, requested) === '.')
    return { title: `${verb} the workspace`, subtitle: '', ...(detail !== undefined ? { detail } : {}) };
  return pathDescription(`${verb} ${requested}`, requested, workspace, detail);
}

/** The lines a paged read asks for, in words: `lines 201–400`, `from line 201`; '' for the first page. */
export function requestedLines(offset: number | undefined, limit: number | undefined): string {
  const start = offset ?? 1;
  if (limit !== undefined) return limit === 1 ? `line ${start}` : `lines ${start}–${start + limit - 1}`;
  return start > 1 ? `from line ${start}` : '';
}

/** A command line on one line (`⏎` where it breaks), `host: ` before it for a remote one. */
export function commandSubtitle(command: string, host?: string): string {
  const line = command.replace(/\s*\n\s*/g, ' ⏎ ').trim();
  return host ? `${host}: ${line}` : line;
}
