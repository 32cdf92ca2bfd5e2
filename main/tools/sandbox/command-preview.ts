import { constants } from 'node:fs';
import {
  cp,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  rmdir,
  symlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChangedFile } from '../../../protocol/changes.ts';
import type { SandboxRules } from '../../../protocol/sandbox.ts';
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
  kind: 'file' | 'link' | 'dir';
  size: number;
  mtimeMs: number;
}

export async function previewCommand(request: PreviewRequest): Promise<CommandPreview> {
  if (process.platform !== 'linux')
    throw new Error('A preview needs bubblewrap (Linux): here the command can only be run or refused.');
  const before = await walk(request.workspace);
  const folder = await mkdtemp(path.join(os.tmpdir(), 'aether-preview-'));
  const copy = path.join(folder, 'workspace');
  try {
    await cp(request.workspace, copy, {
      recursive: true,
      verbatimSymlinks: true,
      preserveTimestamps: true,
      mode: constants.COPYFILE_FICLONE,
    });
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
    const after = await walk(copy);
    const files = await changes(request.workspace, copy, before, after);
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

/** Every entry under `root`, by its `/`-separated path. */
async function walk(root: string): Promise<Map<string, Seen>> {
  const seen = new Map<string, Seen>();
  const visit = async (relative: string): Promise<void> => {
    const entries = await readdir(path.join(root, relative), { withFileTypes: true });
    for (const entry of entries) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      const info = await lstat(path.join(root, name));
      const kind = info.isDirectory() ? 'dir' : info.isSymbolicLink() ? 'link' : 'file';
      seen.set(name, { kind, size: info.size, mtimeMs: info.mtimeMs });
      if (kind === 'dir') await visit(name);
    }
  };
  await visit('');
  return seen;
}

async function contentOf(root: string, file: string, seen: Seen | undefined): Promise<Buffer | null> {
  if (!seen || seen.kind === 'dir') return null;
  const absolute = path.join(root, file);
  return seen.kind === 'link' ? Buffer.from(`link:${await readlink(absolute)}`) : readFile(absolute);
}

async function changes(
  workspace: string,
  copy: string,
  before: Map<string, Seen>,
  after: Map<string, Seen>,
): Promise<ChangedFile[]> {
  const files: ChangedFile[] = [];
  const names = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => a.localeCompare(b));
  for (const name of names) {
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
