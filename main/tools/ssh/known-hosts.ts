import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';

// Host-key checking for `ssh_exec`, in OpenSSH's known_hosts format: plain and hashed (`|1|salt|hash`)
// host names, wildcards and negations, `[host]:port` for other ports, `@revoked` lines. A key is
// accepted only when a line vouches for it; an unknown key is for the person to approve, and a
// changed key is refused outright, naming both fingerprints.

export interface KnownHostLine {
  marker: '' | '@revoked' | '@cert-authority';
  hosts: string;
  keyType: string;
  key: Buffer;
  /** `file:line`, for messages. */
  where: string;
}

export type HostKeyVerdict =
  | { kind: 'known'; where: string }
  | { kind: 'revoked'; where: string }
  | { kind: 'changed'; expected: { keyType: string; fingerprint: string; where: string }[] }
  | { kind: 'unknown'; otherTypes: string[] };

export class KnownHosts {
  readonly lines: KnownHostLine[];

  constructor(lines: KnownHostLine[]) {
    this.lines = lines;
  }

  /** Reads every file that exists; a missing file is an empty one. */
  static async load(files: string[]): Promise<KnownHosts> {
    const lines: KnownHostLine[] = [];
    for (const file of files) {
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return '';
        throw new Error(`Could not read the known-hosts file ${file}: ${error.message}`);
      });
      lines.push(...parseKnownHosts(text, file));
    }
    return new KnownHosts(lines);
  }

  /** Key types this host is already known by (to ask the server for one of those first). */
  typesFor(name: string): string[] {
    return [
      ...new Set(
        this.lines.filter((line) => line.marker === '' && hostsMatch(line.hosts, name)).map((line) => line.keyType),
      ),
    ];
  }

  verify(name: string, key: Buffer): HostKeyVerdict {
    const keyType = keyTypeOf(key);
    const matching = this.lines.filter((line) => line.marker !== '@cert-authority' && hostsMatch(line.hosts, name));
    const revoked = this.lines.find((line) => line.marker === '@revoked' && line.key.equals(key));
    if (revoked) return { kind: 'revoked', where: revoked.where };
    const vouching = matching.find((line) => line.marker === '' && line.key.equals(key));
    if (vouching) return { kind: 'known', where: vouching.where };
    const sameType = matching.filter((line) => line.marker === '' && line.keyType === keyType);
    if (sameType.length > 0) {
      return {
        kind: 'changed',
        expected: sameType.map((line) => ({
          keyType: line.keyType,
          fingerprint: fingerprint(line.key),
          where: line.where,
        })),
      };
    }
    return {
      kind: 'unknown',
      otherTypes: [...new Set(matching.filter((line) => line.marker === '').map((line) => line.keyType))],
    };
  }
}

export function parseKnownHosts(text: string, file: string): KnownHostLine[] {
  const lines: KnownHostLine[] = [];
  text.split('\n').forEach((raw, index) => {
    const fields = raw.trim().split(/\s+/);
    if (fields[0] === undefined || fields[0] === '' || fields[0].startsWith('#')) return;
    const marker = fields[0] === '@revoked' || fields[0] === '@cert-authority' ? fields.shift()! : '';
    const [hosts, keyType, base64] = fields;
    if (!hosts || !keyType || !base64) return;
    const key = Buffer.from(base64, 'base64');
    // A line whose key does not name its own type is damaged; skip it rather than trust it.
    if (key.length === 0 || safeKeyType(key) !== keyType) return;
    lines.push({ marker: marker as KnownHostLine['marker'], hosts, keyType, key, where: `${file}:${index + 1}` });
  });
  return lines;
}

/** The name known_hosts uses: `host` on port 22, `[host]:port` elsewhere. */
export function knownHostName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** OpenSSH's host list: comma-separated patterns, `*`/`?` wildcards, `!` negation, or one hashed name. */
export function hostsMatch(hosts: string, name: string): boolean {
  if (hosts.startsWith('|1|')) return hashedMatch(hosts, name);
  let matched = false;
  for (const pattern of hosts.split(',')) {
    const negated = pattern.startsWith('!');
    if (!globMatch(negated ? pattern.slice(1) : pattern, name)) continue;
    if (negated) return false;
    matched = true;
  }
  return matched;
}

function hashedMatch(entry: string, name: string): boolean {
  const [, , salt, hash] = entry.split('|');
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

function globMatch(pattern: string, name: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 'i').test(name);
}

/** `SHA256:…`, as `ssh-keygen -l` prints it. */
export function fingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** The type named at the start of an SSH public key blob (`ssh-ed25519`, `ssh-rsa`, …). */
export function keyTypeOf(key: Buffer): string {
  return safeKeyType(key) ?? 'unknown';
}

function safeKeyType(key: Buffer): string | null {
  if (key.length < 4) return null;
  const length = key.readUInt32BE(0);
  if (length === 0 || length > 64 || key.length < 4 + length) return null;
  return key.subarray(4, 4 + length).toString('latin1');
}

/** Host-key algorithms to offer first so the server shows the key we already know. */
export function hostKeyAlgorithmsFor(types: string[]): string[] {
  return types.flatMap((type) => (type === 'ssh-rsa' ? ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'] : [type]));
}

/** Appends the key to the app's own known-hosts file (0600, in a 0700 folder). */
export async function rememberHostKey(file: string, name: string, key: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await appendFile(file, `${name} ${keyTypeOf(key)} ${key.toString('base64')}\n`, { mode: 0o600 });
}
