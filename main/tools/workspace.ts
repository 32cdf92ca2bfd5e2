import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from './tool.ts';

// Workspace confinement: resolve, then the real path of the target (or of its deepest existing
// ancestor, for a file about to be created) must stay inside the real path of the root.

const MAX_LINK_HOPS = 40;

export async function realWorkspaceRoot(root: string): Promise<string> {
  try {
    return await realpath(path.resolve(root));
  } catch {
    throw new ToolError(`The workspace folder ${root} does not exist. Choose an existing folder.`);
  }
}

export async function confinePath(realRoot: string, requested: string): Promise<string> {
  if (typeof requested !== 'string' || requested.length === 0) {
    throw new ToolError('The path is empty. Give a path relative to the workspace root.');
  }
  if (requested.includes('\0')) throw new ToolError('The path contains a NUL character.');
  const target = path.resolve(realRoot, requested);
  if (!isInside(realRoot, target)) throw outside(requested, realRoot);
  const real = await realTarget(target, 0);
  if (!isInside(realRoot, real)) throw outside(requested, realRoot, real);
  return real;
}

export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  // `..` as a whole segment leaves the root; a name such as `..notes` does not.
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** The real path of `target`; for a path that does not exist yet, real ancestor + the missing rest. */
async function realTarget(target: string, hops: number): Promise<string> {
  if (hops > MAX_LINK_HOPS) throw new ToolError(`Too many symbolic links while resolving ${target}.`);
  try {
    return await realpath(target);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const stat = await lstat(target).catch((error: unknown) => {
    if (isMissing(error)) return null;
    throw error;
  });
  if (stat?.isSymbolicLink()) {
    // A dangling link: judge it by where it points, not where it sits.
    const link = await readlink(target);
    return realTarget(path.resolve(path.dirname(target), link), hops + 1);
  }
  const parent = path.dirname(target);
  if (parent === target) return target;
  return path.join(await realTarget(parent, hops), path.basename(target));
}

function outside(requested: string, root: string, real?: string): ToolError {
  const via = real ? ` (it resolves to ${real})` : '';
  return new ToolError(
    `Refused: ${requested} is outside the workspace ${root}${via}. Use a path inside the workspace.`,
  );
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Workspace-relative display path, `/`-separated. */
export function displayPath(realRoot: string, real: string): string {
  const relative = path.relative(realRoot, real);
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}
