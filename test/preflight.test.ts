import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packageManager, preflight } from './preflight.ts';
import { findChromium, findSshd } from './system-programs.ts';

// The preflight run as `npm test` runs it, in a process of its own, with a PATH and a browser
// cache that hide (or provide) the programs.

const run = promisify(execFile);
const SCRIPT = path.join(import.meta.dirname, 'preflight.ts');
const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'aether-preflight-'));
  await mkdir(path.join(dir, 'bin'));
  await mkdir(path.join(dir, 'sbin'));
  await mkdir(path.join(dir, 'browsers'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the preflight script with only `dir/bin` on the PATH; resolves to its exit code and stderr. */
async function runPreflight(extra: Record<string, string> = {}): Promise<{ code: number; stderr: string }> {
  const env = {
    PATH: path.join(dir, 'bin'),
    HOME: dir,
    PLAYWRIGHT_BROWSERS_PATH: path.join(dir, 'browsers'),
    ...extra,
  };
  try {
    const { stderr } = await run(process.execPath, [SCRIPT], { env });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

async function fakeProgram(relative: string): Promise<string> {
  const file = path.join(dir, relative);
  await writeFile(file, '#!/bin/sh\nexit 0\n');
  await chmod(file, 0o755);
  return file;
}

describe('preflight of npm test', () => {
  it('stops with one message naming the missing packages and the command that installs them here', async () => {
    const { code, stderr } = await runPreflight();
    expect(code).toBe(1);
    expect(stderr).toMatch(/^npm test needs programs this machine does not have:\n/);
    for (const program of ['sshd', 'ssh-keygen', 'ssh-agent', 'ssh-add', 'pgrep', 'chromium'])
      expect(stderr).toContain(`  ${program}: `);
    // This machine is Debian, as .ci/run expects.
    expect(stderr).toMatch(/\n {2}(sudo )?apt-get install -y openssh-server openssh-client procps chromium\n/);
    expect(stderr).toContain('npx playwright install chromium');
    // One message, not a stack trace.
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('passes when the programs are on the PATH, sshd in the sbin folder beside its bin', async () => {
    for (const program of ['ssh-keygen', 'ssh-agent', 'ssh-add', 'pgrep', 'chromium'])
      await fakeProgram(`bin/${program}`);
    await fakeProgram('sbin/sshd');
    expect(await runPreflight()).toEqual({ code: 0, stderr: '' });
  });

  it('names only what is missing: a Chromium downloaded by Playwright counts as found', async () => {
    for (const program of ['ssh-keygen', 'ssh-agent', 'ssh-add', 'pgrep']) await fakeProgram(`bin/${program}`);
    const manifest = (await import('../node_modules/playwright-core/browsers.json', { with: { type: 'json' } }))
      .default as { browsers: { name: string; revision: string }[] };
    const revision = manifest.browsers.find((browser) => browser.name === 'chromium')!.revision;
    await mkdir(path.join(dir, 'browsers', `chromium-${revision}`, 'chrome-linux64'), { recursive: true });
    const chrome = await fakeProgram(`browsers/chromium-${revision}/chrome-linux64/chrome`);
    const { code, stderr } = await runPreflight();
    expect(code).toBe(1);
    expect(stderr).toContain('  sshd: ');
    expect(stderr).not.toContain('  chromium: ');
    expect(stderr).toMatch(/apt-get install -y openssh-server\n/);
    expect(
      findChromium({ PATH: '', HOME: dir, PLAYWRIGHT_BROWSERS_PATH: path.join(dir, 'browsers') }, 'linux'),
    ).toEqual({
      path: chrome,
    });
  });

  it('takes AETHER_SSHD and AETHER_CHROMIUM over any search, and says when they name nothing', async () => {
    const sshd = await fakeProgram('sshd-elsewhere');
    expect(findSshd({ PATH: '', AETHER_SSHD: sshd })).toEqual({ path: sshd });
    expect(findChromium({ PATH: '/usr/bin', AETHER_CHROMIUM: path.join(dir, 'nope') })).toEqual({
      missing: `AETHER_CHROMIUM=${path.join(dir, 'nope')} is not an executable file`,
    });
  });

  it('advises dnf on Fedora and brew on macOS, without sudo for root', () => {
    const bare = { env: { PATH: path.join(dir, 'bin'), HOME: dir, PLAYWRIGHT_BROWSERS_PATH: dir }, root: false };
    expect(packageManager('linux', 'ID=fedora\n')).toBe('dnf');
    expect(packageManager('linux', 'ID="rocky"\nID_LIKE="rhel centos fedora"\n')).toBe('dnf');
    expect(packageManager('linux', 'ID=linuxmint\nID_LIKE="ubuntu debian"\n')).toBe('apt');
    expect(packageManager('linux', 'ID=arch\n')).toBeNull();
    const fedora = preflight({ ...bare, platform: 'linux', osRelease: 'ID=fedora\n' });
    expect(fedora.ok ? '' : fedora.message).toContain(
      '  sudo dnf install -y openssh-server openssh-clients procps-ng chromium\n',
    );
    const mac = preflight({ ...bare, platform: 'darwin', osRelease: '' });
    expect(mac.ok ? '' : mac.message).toContain('  brew install openssh\n  brew install --cask chromium\n');
    const asRoot = preflight({ ...bare, root: true, platform: 'linux', osRelease: DEBIAN });
    expect(asRoot.ok ? '' : asRoot.message).toContain('\n  apt-get install -y openssh-server');
    const arch = preflight({ ...bare, platform: 'linux', osRelease: 'ID=arch\n' });
    expect(arch.ok ? '' : arch.message).toContain("Install them with your package manager (Debian's packages:");
  });
});
