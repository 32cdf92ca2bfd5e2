import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';
import { findSshd } from './system-programs.ts';

// A real OpenSSH server on 127.0.0.1 for tests: its own config, host key and authorized_keys in a
// temp folder, a free port, stopped by PID. Needs the `openssh-server` package (test/preflight.ts
// says so before the tests start); AETHER_SSHD names an sshd kept elsewhere.

const run = promisify(execFile);

/** The sshd the preflight found. */
function sshdPath(): string {
  const found = findSshd(process.env);
  if ('path' in found) return found.path;
  throw new Error(`No sshd for the ssh tests: ${found.missing}. Run node test/preflight.ts for what to install.`);
}

export interface SshdOptions {
  maxSessions?: number;
  /** Variables the server sets in every session (SetEnv), after its own: HOME here moves the account's start-up files. */
  setEnv?: Record<string, string>;
}

export interface Sshd {
  port: number;
  dir: string;
  /** The server's listening process. */
  pid: number;
  /** A client key the server accepts. */
  clientKey: string;
  /** A client key the server does not know. */
  strangerKey: string;
  /** The host key's public line (`ssh-ed25519 AAAA…`). */
  hostPublicKey: string;
  /** `[127.0.0.1]:port ssh-ed25519 AAAA…`, as a known_hosts line. */
  knownHostsLine: string;
  user: string;
  /** Per-connection server processes (not the listener), for cutting a link. */
  connectionPids(): number[];
  stop(): Promise<void>;
}

export async function startSshd(options: SshdOptions = {}): Promise<Sshd> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'aether-sshd-'));
  // sshd refuses to start without its privilege-separation folder.
  await mkdir('/run/sshd', { recursive: true, mode: 0o755 }).catch(() => undefined);
  const hostKey = path.join(dir, 'host_ed25519');
  const clientKey = path.join(dir, 'client_ed25519');
  const strangerKey = path.join(dir, 'stranger_ed25519');
  await Promise.all([keygen(hostKey), keygen(clientKey), keygen(strangerKey)]);
  await writeFile(path.join(dir, 'authorized_keys'), await readFile(`${clientKey}.pub`), { mode: 0o600 });
  const hostPublicKey = (await readFile(`${hostKey}.pub`, 'utf8')).trim().split(/\s+/).slice(0, 2).join(' ');

  for (let attempt = 0; ; attempt += 1) {
    const port = await freePort();
    const config = path.join(dir, 'sshd_config');
    await writeFile(config, sshdConfig(dir, port, hostKey, options), { mode: 0o600 });
    const child = spawn(sshdPath(), ['-D', '-f', config, '-E', path.join(dir, 'sshd.log')], { stdio: 'ignore' });
    const ready = await waitForBanner(port, child);
    if (ready && child.pid !== undefined) {
      const pid = child.pid;
      return {
        port,
        dir,
        pid,
        clientKey,
        strangerKey,
        hostPublicKey,
        knownHostsLine: `[127.0.0.1]:${port} ${hostPublicKey}`,
        user: os.userInfo().username,
        connectionPids: () => descendants(pid).filter((candidate) => /^sshd/.test(commandName(candidate))),
        stop: async () => {
          await stopProcess(child, pid);
          await rm(dir, { recursive: true, force: true });
        },
      };
    }
    child.kill('SIGKILL');
    if (attempt >= 4) {
      const log = await readFile(path.join(dir, 'sshd.log'), 'utf8').catch(() => '(no log)');
      throw new Error(`sshd did not start on 127.0.0.1:${port}. Its log:\n${log}`);
    }
  }
}

function sshdConfig(dir: string, port: number, hostKey: string, options: SshdOptions): string {
  return [
    `Port ${port}`,
    'ListenAddress 127.0.0.1',
    `HostKey ${hostKey}`,
    `PidFile ${path.join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
    'UsePAM no',
    'StrictModes no',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin prohibit-password',
    'AllowAgentForwarding no',
    'PrintMotd no',
    `MaxSessions ${options.maxSessions ?? 10}`,
    ...Object.entries(options.setEnv ?? {}).map(([name, value]) => `SetEnv ${name}=${value}`),
    'LogLevel VERBOSE',
    '',
  ].join('\n');
}

async function keygen(file: string): Promise<void> {
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', path.basename(file), '-f', file]);
}

/** Polls until the server greets with its SSH banner; false when it exited first. */
async function waitForBanner(port: number, child: ChildProcess): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    const greeted = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('SSH-2.0'));
      });
      socket.once('error', () => resolve(false));
    });
    if (greeted) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

async function stopProcess(child: ChildProcess, pid: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(pid, 'SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

/** Every live descendant of `pid`, read from /proc. */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProc(Number(entry));
    if (!stat || stat.state === 'Z') continue;
    parents.set(stat.ppid, [...(parents.get(stat.ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of parents.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function commandName(pid: number): string {
  return readProc(pid)?.comm ?? '';
}

function readProc(pid: number): { comm: string; state: string; ppid: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const open = text.indexOf('(');
    const close = text.lastIndexOf(')');
    const rest = text.slice(close + 2).split(' ');
    return { comm: text.slice(open + 1, close), state: rest[0] ?? '', ppid: Number(rest[1]) };
  } catch {
    return null;
  }
}
