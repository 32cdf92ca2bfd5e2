import { describe, expect, it } from 'vitest';
import type { SandboxPlan } from './sandbox-plan.ts';
import { seatbeltProfile } from './seatbelt-profile.ts';

// The Seatbelt profile checked line by line against what docs/security.md promises of the sandbox
// on macOS (sandbox-exec cannot run here). Seatbelt's profile language takes the last rule that
// matches an operation, so each narrowing (a read-only folder in the workspace, a hidden secret)
// must come after the rule it narrows.

const plan: SandboxPlan = {
  workspace: '/Users/me/ws',
  cwd: '/Users/me/ws/src',
  writable: ['/Users/me/.npm'],
  hidden: [
    { path: '/Users/me/.ssh', directory: true },
    { path: '/Users/me/.netrc', directory: false },
    { path: '/Users/me/Library/Application Support/ÆtherCodex', directory: true },
  ],
  readOnly: ['/Users/me/ws/.git/hooks', '/Users/me/ws/.aethercodex'],
  tmpBytes: 1,
  maxProcesses: 8,
  network: [],
};
const TMP = ['/private/tmp', '/private/var/folders'];

const lines = (profile: string) => profile.split('\n');
const at = (profile: string, line: string) => {
  const index = lines(profile).indexOf(line);
  if (index < 0) throw new Error(`not in the profile: ${line}\n${profile}`);
  return index;
};

describe('the Seatbelt profile', () => {
  it('writes only the workspace, the temp folders and the writable folders, in that one rule after the deny', () => {
    const profile = seatbeltProfile(plan, TMP);
    const allow =
      '(allow file-write* (subpath "/Users/me/ws") (subpath "/private/tmp") (subpath "/private/var/folders") (subpath "/Users/me/.npm") (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))';
    expect(at(profile, '(deny file-write*)')).toBeLessThan(at(profile, allow));
    expect(lines(profile).filter((line) => line.startsWith('(allow file-write*'))).toEqual([allow]);
    expect(lines(profile)[0]).toBe('(version 1)');
  });

  it("keeps the workspace's hooks and app folder read-only, after the rule that lets the workspace be written", () => {
    const profile = seatbeltProfile(plan, TMP);
    const allow = lines(profile).findIndex((line) => line.startsWith('(allow file-write*'));
    expect(at(profile, '(deny file-write* (subpath "/Users/me/ws/.git/hooks"))')).toBeGreaterThan(allow);
    expect(at(profile, '(deny file-write* (subpath "/Users/me/ws/.aethercodex"))')).toBeGreaterThan(allow);
  });

  it('hides secrets from reads and writes as the last rules: a folder as a subpath, a file as a literal', () => {
    const profile = seatbeltProfile(plan, TMP);
    const hidden = [
      '(deny file-read* file-write* (subpath "/Users/me/.ssh"))',
      '(deny file-read* file-write* (literal "/Users/me/.netrc"))',
      '(deny file-read* file-write* (subpath "/Users/me/Library/Application Support/ÆtherCodex"))',
    ];
    expect(lines(profile).slice(-hidden.length)).toEqual(hidden);
  });

  it('reaches no network without an allow-list: no outbound rule but local sockets', () => {
    const profile = seatbeltProfile(plan, TMP);
    expect(at(profile, '(deny network*)')).toBeLessThan(at(profile, '(allow network* (remote unix-socket))'));
    expect(profile).not.toContain('network-outbound');
    expect(profile).not.toContain('(remote tcp');
  });

  it("reaches only the proxy's loopback port with an allow-list", () => {
    const profile = seatbeltProfile({ ...plan, network: ['registry.npmjs.org'] }, TMP, 4321);
    expect(at(profile, '(deny network*)')).toBeLessThan(
      at(profile, '(allow network-outbound (remote tcp "localhost:4321"))'),
    );
    expect(profile).not.toContain('registry.npmjs.org');
  });

  it('writes nothing of the workspace in the plan mode, only the temp folders', () => {
    const profile = seatbeltProfile({ ...plan, writable: [], readOnlyWorkspace: true }, TMP);
    expect(profile).toContain(
      '(allow file-write* (subpath "/private/tmp") (subpath "/private/var/folders") (literal "/dev/null")',
    );
    expect(profile).not.toContain('(subpath "/Users/me/ws")');
  });

  it('quotes a path holding a quote or a backslash as one string', () => {
    const profile = seatbeltProfile({ ...plan, workspace: '/Users/me/a "b"\\c', readOnly: [], hidden: [] }, TMP);
    expect(profile).toContain('(subpath "/Users/me/a \\"b\\"\\\\c")');
  });
});
