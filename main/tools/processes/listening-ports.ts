import { execFile } from 'node:child_process';
import { readdir, readFile, readlink } from 'node:fs/promises';

// The TCP ports a process's processes listen on, read from the system's socket tables: on Linux,
// the listening sockets of /proc/net/tcp and tcp6 whose inodes are among the processes' open
// descriptors; elsewhere (macOS), lsof. Never a failure: what cannot be read is no port.

const LISTEN = '0A';

export async function listeningPorts(pids: readonly number[], procRoot = '/proc'): Promise<number[]> {
  if (pids.length === 0) return [];
  const table = await listeningSockets(procRoot);
  if (table === null) return process.platform === 'linux' ? [] : await lsofPorts(pids);
  if (table.size === 0) return [];
  const ports = new Set<number>();
  for (const pid of pids) {
    for (const inode of await socketInodes(procRoot, pid)) {
      const port = table.get(inode);
      if (port !== undefined) ports.add(port);
    }
  }
  return [...ports].sort((a, b) => a - b);
}

/** Listening socket inode → port; null where /proc/net cannot be read. */
async function listeningSockets(procRoot: string): Promise<Map<string, number> | null> {
  const sockets = new Map<string, number>();
  let read = false;
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = await readFile(`${procRoot}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    read = true;
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/);
      if (fields[3] !== LISTEN || fields[9] === undefined) continue;
      const port = Number.parseInt(fields[1]?.split(':')[1] ?? '', 16);
      if (Number.isInteger(port)) sockets.set(fields[9], port);
    }
  }
  return read ? sockets : null;
}

async function socketInodes(procRoot: string, pid: number): Promise<string[]> {
  let fds: string[];
  try {
    fds = await readdir(`${procRoot}/${pid}/fd`);
  } catch {
    return [];
  }
  const inodes: string[] = [];
  for (const fd of fds) {
    try {
      const target = await readlink(`${procRoot}/${pid}/fd/${fd}`);
      const match = /^socket:\[(\d+)\]$/.exec(target);
      if (match) inodes.push(match[1]!);
    } catch {
      // Closed meanwhile.
    }
  }
  return inodes;
}

function lsofPorts(pids: readonly number[]): Promise<number[]> {
  return new Promise((resolve) => {
    execFile(
      'lsof',
      ['-a', '-nP', '-iTCP', '-sTCP:LISTEN', '-Fn', '-p', pids.join(',')],
      { timeout: 2000 },
      (error, stdout) => {
        if (error && !stdout) return resolve([]);
        const ports = new Set<number>();
        for (const line of stdout.split('\n')) {
          const match = /^n.*:(\d+)$/.exec(line);
          if (match) ports.add(Number(match[1]));
        }
        resolve([...ports].sort((a, b) => a - b));
      },
    );
  });
}
