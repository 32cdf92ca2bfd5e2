import { constants } from 'node:fs';
import {
  copyFile,
  lstat,
  lutimes,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  rmdir,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChangedFile } from '../../../protocol/changes.ts';
import type { PreviewProgress, SandboxRules } from '../../../protocol/sandbox.ts';
import { describeBytes } from '../checkpoints/turn-changes.ts';
import { runInGroup, type GroupEnd } from '../exec/run-in-group.ts';
import { systemClock } from '../progress-reporter.ts';
import { sandboxForCommand } from './sandbox-launch.ts';
import type { SandboxSupport } from './sandbox-support.ts';

// What a command would change, before it runs: the workspace copied (copy-on-write where the file
// system can: reflinks), the command run in the sandbox with the copy mounted at the workspace's own
// path and no network, and the copy compared with the workspace — added, modified and deleted
// files, with diffs, as the Changes card shows them. Nothing of the workspace changes. `keep`
// applies exactly those changes, once it has checked that none of those files changed meanwhile.

/** The most of a preview's output kept for the card. */
const OUTPUT_TAIL_BYTES = 64 * 1024;

/** How often the copy and the comparison say how far they are. */
const PROGRESS_EVERY_MS = 100;

export interface PreviewRequest {
  command: string;
  /** The workspace root, real path. */
  workspace: string;
  /** Where the command starts, inside the workspace. */
  cwd: string;
  rules: SandboxRules;
  shell?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  signal?: AbortSignal;
  support?: SandboxSupport;
  /** How far it has gone: the copy and the comparison entry by entry, a few times a second. */
  progress?: (progress: PreviewProgress) => void;
}

export interface CommandPreview {
  command: string;
  end: GroupEnd;
  /** The end of what it printed. */
  output: string;
  files: ChangedFile[];
  /** Why the preview may differ from a real run (it needed the network, which a preview never has); null: none seen. */
  caveat: string | null;
  /** Applies exactly the previewed changes; refuses, changing nothing, when one of those files changed meanwhile. */
  keep(): Promise<string[]>;
  /** Removes the copy. */
  discard(): Promise<void>;
}

interface Seen {
  /** `other`: a socket, a pipe or a device, neither copied nor compared. */
  kind: 'file' | 'link' | 'dir' | 'other';
  size: number;
  mtimeMs: number;
  atimeMs: number;
}

export async function previewCommand(request: PreviewRequest): Promise<CommandPreview> {
  if (process.platform !== 'linux')
    throw new Error('A preview needs bubblewrap (Linux): here the command can only be run or refused.');
  const report = throttled(request.progress);
  report({ phase: 'listing', done: 0, total: 0 }, true);
  const before = await walk(request.workspace, (count) => report({ phase: 'listing', done: count, total: 0 }));
  const folder = await mkdtemp(path.join(os.tmpdir(), 'aether-preview-'));
  const copy = path.join(folder, 'workspace');
  try {
    report({ phase: 'copying', done: 0, total: before.size }, true);
    await copyWorkspace(request.workspace, copy, before, (done) =>
      report({ phase: 'copying', done, total: before.size }),
    );
    report({ phase: 'running', done: 0, total: 0 }, true);
    const sandbox = await sandboxForCommand(
      { ...request.rules, network: [] },
      { workspace: request.workspace, cwd: request.cwd, workspaceSource: copy },
      request.support ? { support: request.support } : {},
    );
    const chunks: Buffer[] = [];
    let kept = 0;
    let end: GroupEnd;
    try {
      end = await runInGroup({
        shell: request.shell ?? process.env['SHELL'] ?? '/bin/sh',
        command: request.command,
        cwd: request.workspace,
        env: request.env ?? process.env,
        timeoutMs: request.timeoutMs ?? 120_000,
        killGraceMs: 1000,
        signal: request.signal ?? new AbortController().signal,
        clock: systemClock,
        wrapper: sandbox,
        append: (chunk) => {
          chunks.push(chunk);
          kept += chunk.length;
          while (kept > OUTPUT_TAIL_BYTES && chunks.length > 1) kept -= chunks.shift()?.length ?? 0;
          return true;
        },
        drained: () => Promise.resolve(),
      });
    } finally {
      await sandbox.close();
    }
    const output = Buffer.concat(chunks).toString('utf8');
    report({ phase: 'comparing', done: 0, total: 0 }, true);
    const after = await walk(copy);
    const files = await changes(request.workspace, copy, before, after, (done, total) =>
      report({ phase: 'comparing', done, total }),
    );
    const caveat = sandbox.refusal(output);
    return {
      command: request.command,
      end,
      output,
      files,
      caveat: caveat ? `${caveat} A real run may do more than this preview shows.` : null,
      keep: () => keep(request.workspace, copy, before, files),
      discard: () => rm(folder, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

/** Reports at most every PROGRESS_EVERY_MS, but a change of phase at once. */
function throttled(progress: PreviewRequest['progress']): (update: PreviewProgress, now?: boolean) => void {
  let last = 0;
  return (update, now = false) => {
    const at = performance.now();
    if (!progress || (!now && at - last < PROGRESS_EVERY_MS)) return;
    last = at;
    progress(update);
  };
}

/**
 * The workspace copied entry by entry, in the walk's order (a folder before what it holds):
 * files as reflinks where the file system has them, links as they are, times kept so that a
 * build in the preview sees what it would see in the workspace.
 */
async function copyWorkspace(
  workspace: string,
  copy: string,
  entries: Map<string, Seen>,
  copied: (done: number) => void,
): Promise<void> {
  await mkdir(copy);
  let done = 0;
  const folders: [string, Seen][] = [];
  for (const [name, seen] of entries) {
    const source = path.join(workspace, name);
    const target = path.join(copy, name);
    if (seen.kind === 'dir') {
      await mkdir(target);
      folders.push([target, seen]);
    } else if (seen.kind === 'link') {
      await symlink(await readlink(source), target);
      await lutimes(target, seen.atimeMs / 1000, seen.mtimeMs / 1000).catch(() => undefined);
    } else if (seen.kind === 'file') {
      await copyFile(source, target, constants.COPYFILE_FICLONE);
      await utimes(target, seen.atimeMs / 1000, seen.mtimeMs / 1000);
    }
    copied(++done);
  }
  // A folder's times last: filling it changed them.
  for (const [target, seen] of folders.reverse()) await utimes(target, seen.atimeMs / 1000, seen.mtimeMs / 1000);
}

/** Every entry under `root`, by its `/`-separated path; `found` hears how many so far. */
async function walk(root: string, found: (count: number) => void = () => undefined): Promise<Map<string, Seen>> {
  const seen = new Map<string, Seen>();
  const visit = async (relative: string): Promise<void> => {
    const entries = await readdir(path.join(root, relative), { withFileTypes: true });
    for (const entry of entries) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      const info = await lstat(path.join(root, name));
      const kind = info.isDirectory() ? 'dir' : info.isSymbolicLink() ? 'link' : info.isFile() ? 'file' : 'other';
      seen.set(name, { kind, size: info.size, mtimeMs: info.mtimeMs, atimeMs: info.atimeMs });
      found(seen.size);
      if (kind === 'dir') await visit(name);
    }
  };
  await visit('');
  return seen;
}

async function contentOf(root: string, file: string, seen: Seen | undefined): Promise<Buffer | null> {
  if (!seen || seen.kind === 'dir' || seen.kind === 'other') return null;
  const absolute = path.join(root, file);
  return seen.kind === 'link' ? Buffer.from(`link:${await readlink(absolute)}`) : readFile(absolute);
}

async function changes(
  workspace: string,
  copy: string,
  before: Map<string, Seen>,
  after: Map<string, Seen>,
  compared: (done: number, total: number) => void,
): Promise<ChangedFile[]> {
  const files: ChangedFile[] = [];
  const names = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => a.localeCompare(b));
  for (const [index, name] of names.entries()) {
    compared(index, names.length);
    const was = before.get(name);
    const now = after.get(name);
    if (was?.kind === 'dir' && now?.kind === 'dir') continue;
    const old = await contentOf(workspace, name, was);
    const fresh = await contentOf(copy, name, now);
    if (old === null && fresh === null) continue;
    if (old !== null && fresh !== null && old.equals(fresh)) continue;
    const status = old === null ? 'added' : fresh === null ? 'deleted' : 'modified';
    const base: ChangedFile = { path: name, status, added: 0, removed: 0, diff: '', note: null, not_restorable: false };
    files.push(
      was?.kind === 'link' || now?.kind === 'link'
        ? { ...base, note: 'symbolic link' }
        : describeBytes(base, old ?? Buffer.alloc(0), fresh ?? Buffer.alloc(0)),
    );
  }
  return files;
}

async function keep(
  workspace: string,
  copy: string,
  before: Map<string, Seen>,
  files: ChangedFile[],
): Promise<string[]> {
  const moved: string[] = [];
  for (const file of files) {
    const was = before.get(file.path);
    const info = await lstat(path.join(workspace, file.path)).catch(() => null);
    const same = was ? info !== null && info.size === was.size && info.mtimeMs === was.mtimeMs : info === null;
    if (!same) moved.push(file.path);
  }
  if (moved.length > 0)
    throw new Error(
      `The workspace changed since the preview (${moved.join(', ')}): nothing was applied. Preview the command again.`,
    );
  for (const file of files) {
    const target = path.join(workspace, file.path);
    const source = path.join(copy, file.path);
    if (file.status === 'deleted') {
      await rm(target, { force: true });
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true });
    const info = await lstat(source);
    const temporary = `${target}.aether-preview-${process.pid}`;
    if (info.isSymbolicLink()) await symlink(await readlink(source), temporary);
    else await writeFile(temporary, await readFile(source), { mode: info.mode & 0o7777 });
    await rename(temporary, target);
  }
  // Folders the command removed, once emptied.
  for (const file of files.filter((entry) => entry.status === 'deleted'))
    for (let folder = path.dirname(file.path); folder !== '.'; folder = path.dirname(folder)) {
      if (await lstat(path.join(copy, folder)).catch(() => null)) break;
      await rmdir(path.join(workspace, folder)).catch(() => undefined);
    }
  return files.map((file) => file.path);
}
