import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SandboxRules } from '../../../protocol/sandbox.ts';

// What a sandbox is made of for one run, as real paths that exist: the rules with `~/` expanded
// and links followed (a mount names the folder, not a link to it), the secrets that are there to
// hide, and the parts of the workspace that stay read-only. bwrap-args.ts and seatbelt-profile.ts
// turn the same plan into each system's terms.

/** Under the home folder: keys, credentials and key stores a command never needs to read. */
export const HOME_SECRETS = [
  '.ssh',
  '.aws',
  '.azure',
  '.gnupg',
  '.kube',
  '.docker/config.json',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.cargo/credentials.toml',
  '.vault-token',
  '.password-store',
  '.pki',
  '.local/share/keyrings',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.terraform.d/credentials.tfrc.json',
  'Library/Keychains',
  // The app's own folder: sessions, settings, keys, known hosts.
  '.aethercodex',
  '.config/ÆtherCodex',
  'Library/Application Support/ÆtherCodex',
] as const;

/**
 * Local daemons' sockets, which a command could use with the person's rights though it has no
 * network: the SSH agent (the keys it holds), the session's runtime folder (D-Bus, through which
 * the key ring hands out secrets; the desktop), Docker and Podman (root on the machine).
 */
export function localDaemonSockets(env: NodeJS.ProcessEnv, home: string): string[] {
  const docker = env['DOCKER_HOST']?.startsWith('unix://') ? env['DOCKER_HOST'].slice('unix://'.length) : undefined;
  const candidates = [
    env['SSH_AUTH_SOCK'],
    env['XDG_RUNTIME_DIR'],
    docker,
    '/run/docker.sock',
    '/var/run/docker.sock',
    '/run/podman/podman.sock',
    path.join(home, '.docker', 'run', 'docker.sock'),
  ];
  return candidates.filter((entry): entry is string => typeof entry === 'string' && path.isAbsolute(entry));
}

/** Inside the workspace, what a command may read but not change: what runs later with the person's rights. */
export const WORKSPACE_READ_ONLY = ['.git/hooks', '.git/config', '.aethercodex'] as const;

export interface SandboxPlace {
  /** The workspace root, real path. */
  workspace: string;
  /** Where the command starts, inside the workspace. */
  cwd: string;
  /** The person's home folder. */
  home: string;
  /** More of the app's folders to hide ($AETHERCODEX_HOME, the sessions folder). */
  appFolders?: readonly string[];
  /** Local daemons' sockets (and the folders holding them) to cover: localDaemonSockets. */
  sockets?: readonly string[];
  /** What is mounted at the workspace's path, when not the workspace itself (a preview's copy). */
  workspaceSource?: string;
}

export interface HiddenPath {
  path: string;
  directory: boolean;
}

export interface SandboxPlan {
  workspace: string;
  /** Mounted at `workspace` when set: a copy the command may change instead. */
  workspaceSource?: string;
  cwd: string;
  /** Folders besides the workspace it may write, real paths that exist. */
  writable: string[];
  hidden: HiddenPath[];
  /** Inside the workspace, real paths that exist. */
  readOnly: string[];
  tmpBytes: number;
  maxProcesses: number;
  /** The hosts allowed; empty: no network. */
  network: string[];
  /** Real paths that exist: when set, all that can be read besides the system folders and the workspace. */
  readable?: string[];
  /** The workspace is mounted read-only as well (the plan mode). */
  readOnlyWorkspace?: true;
}

export function planSandbox(rules: SandboxRules, place: SandboxPlace): SandboxPlan {
  const expand = (entry: string): string =>
    entry === '~' || entry.startsWith('~/')
      ? path.join(place.home, entry.slice(2))
      : path.resolve(place.workspace, entry);
  const writable = rules.read_only
    ? []
    : unique(rules.writable.map(expand).flatMap((entry) => existing(entry, 'directory')));
  const secretPaths = [
    ...HOME_SECRETS.map((entry) => path.join(place.home, entry)),
    ...(place.appFolders ?? []),
    ...(place.sockets ?? []),
    ...rules.hidden.map(expand),
  ];
  const hidden: HiddenPath[] = [];
  for (const entry of secretPaths) {
    // A link is followed: what is hidden is where it leads, so the link leads to nothing readable.
    for (const found of existing(entry, 'any')) {
      // A folder holding the workspace cannot be hidden without hiding the workspace.
      if (hidden.some((known) => known.path === found) || isInside(found, place.workspace)) continue;
      hidden.push({ path: found, directory: isDirectory(found) });
    }
  }
  const readOnly = WORKSPACE_READ_ONLY.flatMap((entry) => existing(path.join(place.workspace, entry), 'any')).filter(
    (entry) => isInside(place.workspace, entry),
  );
  return {
    workspace: place.workspace,
    ...(place.workspaceSource ? { workspaceSource: place.workspaceSource } : {}),
    cwd: place.cwd,
    writable: writable.filter((entry) => !hidden.some((secret) => isInside(secret.path, entry))),
    hidden,
    readOnly,
    tmpBytes: rules.tmp_mib * 1024 * 1024,
    maxProcesses: rules.max_processes,
    network: [...rules.network],
    ...(rules.readable
      ? { readable: unique(rules.readable.map(expand).flatMap((entry) => existing(entry, 'any'))) }
      : {}),
    ...(rules.read_only ? { readOnlyWorkspace: true as const } : {}),
  };
}

export function isInside(folder: string, entry: string): boolean {
  const relative = path.relative(folder, entry);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function existing(entry: string, kind: 'directory' | 'any'): string[] {
  try {
    const real = realpathSync(entry);
    return kind === 'any' || statSync(real).isDirectory() ? [real] : [];
  } catch {
    return [];
  }
}

function isDirectory(entry: string): boolean {
  try {
    return statSync(entry).isDirectory();
  } catch {
    return false;
  }
}

function unique(entries: string[]): string[] {
  return [...new Set(entries)];
}
