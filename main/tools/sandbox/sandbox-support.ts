import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';

// Whether a sandbox can start here, found once per process: bubblewrap on Linux (tried for real,
// since a kernel may refuse unprivileged user namespaces), Seatbelt's sandbox-exec on macOS, none
// on Windows. What cannot start says why and the command that installs or enables it; the
// sandbox mode then stays an approval mode, never runs commands unsandboxed without asking.

export type SandboxSupport =
  | { available: true; mechanism: 'bubblewrap' | 'seatbelt'; program: string }
  | { available: false; reason: string; fix: string };

export interface SupportProbe {
  platform?: NodeJS.Platform;
  /** Where to look for bwrap; default the PATH, then /usr/bin. */
  bwrap?: string;
  env?: NodeJS.ProcessEnv;
}

const INSTALL_BWRAP =
  'sudo apt install bubblewrap (Debian, Ubuntu), sudo dnf install bubblewrap (Fedora), sudo pacman -S bubblewrap (Arch)';

let cached: SandboxSupport | null = null;

/** This process's answer, probed on first use. */
export function sandboxSupport(): SandboxSupport {
  cached ??= probeSandboxSupport();
  return cached;
}

export function probeSandboxSupport(probe: SupportProbe = {}): SandboxSupport {
  const platform = probe.platform ?? process.platform;
  if (platform === 'darwin') {
    const program = '/usr/bin/sandbox-exec';
    return executable(program)
      ? { available: true, mechanism: 'seatbelt', program }
      : {
          available: false,
          reason: `${program} is missing.`,
          fix: 'Reinstall macOS command line tools; sandbox-exec ships with macOS.',
        };
  }
  if (platform !== 'linux') {
    return {
      available: false,
      reason: `The sandbox is not available on ${platform === 'win32' ? 'Windows' : platform}.`,
      fix: 'Run ÆtherCodex inside WSL 2 (Linux) to sandbox commands; here every command is asked about.',
    };
  }
  const program = probe.bwrap ?? findBwrap(probe.env ?? process.env);
  if (!program || !executable(program))
    return { available: false, reason: 'bubblewrap (bwrap) is not installed.', fix: `Install it: ${INSTALL_BWRAP}.` };
  const tried = spawnSync(
    program,
    ['--unshare-all', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', 'true'],
    {
      encoding: 'utf8',
      timeout: 10_000,
    },
  );
  if (tried.status === 0) return { available: true, mechanism: 'bubblewrap', program };
  const said = (tried.stderr || tried.error?.message || `exit ${tried.status}`).trim();
  return { available: false, reason: `bubblewrap could not start a sandbox: ${said}`, fix: enableFix() };
}

/** How to let unprivileged programs make user namespaces on this kernel. */
function enableFix(): string {
  if (readNumber('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === 1)
    return 'Allow user namespaces: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (Ubuntu 24.04 and later; or give bwrap an AppArmor profile that allows userns).';
  if (readNumber('/proc/sys/kernel/unprivileged_userns_clone') === 0)
    return 'Allow user namespaces: sudo sysctl -w kernel.unprivileged_userns_clone=1';
  if (readNumber('/proc/sys/user/max_user_namespaces') === 0)
    return 'Allow user namespaces: sudo sysctl -w user.max_user_namespaces=15000';
  return 'Check that unprivileged user namespaces are allowed (sysctl user.max_user_namespaces, kernel.unprivileged_userns_clone) and that bwrap runs: bwrap --ro-bind / / true';
}

function findBwrap(env: NodeJS.ProcessEnv): string | null {
  const folders = [...(env['PATH'] ?? '').split(path.delimiter).filter(Boolean), '/usr/bin'];
  for (const folder of folders) {
    const candidate = path.join(folder, 'bwrap');
    if (executable(candidate)) return candidate;
  }
  return null;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function readNumber(file: string): number | null {
  try {
    return Number(readFileSync(file, 'utf8').trim());
  } catch {
    return null;
  }
}

/** The one line the app says when the sandbox mode cannot sandbox. */
export function unavailableNotice(support: Extract<SandboxSupport, { available: false }>): string {
  return `The sandbox cannot start: ${support.reason} ${support.fix} Until then the sandbox mode asks before every command, as the ask mode does.`;
}
