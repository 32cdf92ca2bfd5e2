import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint, hostsMatch, KnownHosts, knownHostName, rememberHostKey } from './known-hosts.ts';

const run = promisify(execFile);
let dir: string;
let keyA: { line: string; blob: Buffer };
let keyB: { line: string; blob: Buffer };

async function makeKey(name: string): Promise<{ line: string; blob: Buffer }> {
  const file = path.join(dir, name);
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
  const line = (await readFile(`${file}.pub`, 'utf8')).trim().split(' ').slice(0, 2).join(' ');
  return { line, blob: Buffer.from(line.split(' ')[1]!, 'base64') };
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'aether-known-hosts-'));
  [keyA, keyB] = await Promise.all([makeKey('a'), makeKey('b')]);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('known hosts', () => {
  it('prints fingerprints the way ssh-keygen does', async () => {
    const { stdout } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', path.join(dir, 'a.pub')]);
    expect(stdout.split(' ')[1]).toBe(fingerprint(keyA.blob));
  });

  it('names hosts on other ports as [host]:port', () => {
    expect(knownHostName('example.com', 22)).toBe('example.com');
    expect(knownHostName('127.0.0.1', 2222)).toBe('[127.0.0.1]:2222');
  });

  it('matches wildcards, lists and negations like OpenSSH', () => {
    expect(hostsMatch('*.example.com,10.0.0.?', 'build.example.com')).toBe(true);
    expect(hostsMatch('*.example.com,10.0.0.?', '10.0.0.7')).toBe(true);
    expect(hostsMatch('*.example.com,!secret.example.com', 'secret.example.com')).toBe(false);
    expect(hostsMatch('example.com', 'EXAMPLE.com')).toBe(true);
    expect(hostsMatch('[127.0.0.1]:2222', '127.0.0.1')).toBe(false);
  });

  it('accepts a key vouched for by a hashed entry written by ssh-keygen -H', async () => {
    const file = path.join(dir, 'known_hosts');
    await writeFile(file, `[10.1.2.3]:2200 ${keyA.line}\n`);
    await run('ssh-keygen', ['-H', '-f', file]);
    expect(await readFile(file, 'utf8')).toMatch(/^\|1\|/);
    const book = await KnownHosts.load([file]);
    expect(book.verify('[10.1.2.3]:2200', keyA.blob)).toMatchObject({ kind: 'known' });
    expect(book.verify('[10.1.2.3]:2201', keyA.blob)).toEqual({ kind: 'unknown', otherTypes: [] });
  });

  it('calls a different key of the same type for a known host changed, naming the expected fingerprint', async () => {
    const file = path.join(dir, 'known_hosts');
    await writeFile(file, `# comment\nexample.com ${keyA.line}\n`);
    const verdict = (await KnownHosts.load([file])).verify('example.com', keyB.blob);
    expect(verdict).toEqual({
      kind: 'changed',
      expected: [{ keyType: 'ssh-ed25519', fingerprint: fingerprint(keyA.blob), where: `${file}:2` }],
    });
  });

  it('refuses a key marked @revoked', async () => {
    const file = path.join(dir, 'known_hosts');
    await writeFile(file, `example.com ${keyA.line}\n@revoked * ${keyA.line}\n`);
    expect((await KnownHosts.load([file])).verify('example.com', keyA.blob).kind).toBe('revoked');
  });

  it('treats a missing file as empty and skips damaged lines', async () => {
    const file = path.join(dir, 'known_hosts');
    await writeFile(file, `example.com ssh-rsa ${keyA.line.split(' ')[1]}\nexample.com ssh-ed25519\n`);
    const book = await KnownHosts.load([path.join(dir, 'missing'), file]);
    expect(book.lines).toEqual([]);
  });

  it('remembers an approved key in a 0600 file that reads back as known', async () => {
    const file = path.join(dir, 'app', 'known_hosts');
    await rememberHostKey(file, '[127.0.0.1]:2222', keyA.blob);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toBe(`[127.0.0.1]:2222 ${keyA.line}\n`);
    expect((await KnownHosts.load([file])).verify('[127.0.0.1]:2222', keyA.blob).kind).toBe('known');
  });
});
