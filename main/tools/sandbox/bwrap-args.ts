import path from 'node:path';
import type { SandboxPlan } from './sandbox-plan.ts';

// A plan as bubblewrap's arguments. Everything is read-only (`--ro-bind / /`), then a private /tmp
// of a fixed size (the programs' own folders inside /tmp bound back read-only), the workspace and
// the writable folders bound back writable, the workspace's hooks and app folder read-only again, and the secrets covered last (an empty tmpfs over a
// folder, /dev/null over a file), so no bind above can show them again. Every namespace is new
// (user, PID, network, IPC, UTS, cgroup): no network but its own loopback, and when the sandbox's
// first process ends the kernel ends every other one in its PID namespace. `--die-with-parent`
// ends it with the app; `--new-session` keeps it from typing into the app's terminal.

export interface BwrapOptions {
  /** A folder bound into the sandbox at the same path: where the network proxy's socket is. */
  proxyFolder?: string;
  /** A terminal's shell keeps the session it was started in (job control needs it). */
  terminal?: boolean;
  /** Where the programs it runs live (Node's folder), readable when only named paths are. */
  programFolders?: readonly string[];
}

/** What a program needs to run at all when only named paths are readable. */
const SYSTEM_FOLDERS = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/opt',
  '/nix',
  '/run/current-system',
];

export function bwrapArgs(plan: SandboxPlan, argv: readonly string[], options: BwrapOptions = {}): string[] {
  const args = ['--die-with-parent', '--unshare-all'];
  if (!options.terminal) args.push('--new-session');
  if (plan.readable) {
    // Only the system's programs and libraries, and what the rules name, are there to read.
    for (const folder of SYSTEM_FOLDERS) args.push('--ro-bind-try', folder, folder);
    for (const folder of [...(options.programFolders ?? []), ...plan.readable]) args.push('--ro-bind', folder, folder);
    args.push('--dev', '/dev', '--proc', '/proc');
  } else args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  args.push('--size', String(plan.tmpBytes), '--tmpfs', '/tmp');
  // A program folder inside /tmp (a checkout there, an AppImage's mount) is shown again over the private /tmp.
  for (const folder of options.programFolders ?? [])
    if (folder.startsWith('/tmp/')) args.push('--ro-bind', folder, folder);
  for (const folder of plan.writable) args.push('--bind', folder, folder);
  const source = plan.workspaceSource ?? plan.workspace;
  args.push(plan.readOnlyWorkspace ? '--ro-bind' : '--bind', source, plan.workspace);
  for (const entry of plan.readOnly)
    args.push('--ro-bind', path.join(source, path.relative(plan.workspace, entry)), entry);
  if (options.proxyFolder) args.push('--bind', options.proxyFolder, options.proxyFolder);
  for (const secret of plan.hidden) {
    if (secret.directory) args.push('--tmpfs', secret.path, '--remount-ro', secret.path);
    else args.push('--ro-bind', '/dev/null', secret.path);
  }
  args.push('--chdir', plan.cwd, '--', ...argv);
  return args;
}
