import { describe, expect, it } from 'vitest';
import { headlessGate, parseAllowList, rulesForMode } from './permissions.ts';

const question = (name: string, scope: string) => ({
  callId: 'c1',
  name,
  request: { title: `Use ${name}`, detail: '', scope },
  signal: new AbortController().signal,
});

describe('headlessGate', () => {
  it('lets reads through and refuses writes, commands and SSH with the flags that allow them', async () => {
    const gate = headlessGate();
    expect(await gate.check('read', question('read_file', 'read'))).toEqual({ allowed: true });
    for (const kind of ['write', 'exec', 'ssh'] as const) {
      const decision = await gate.check(kind, question('tool', kind));
      expect(decision.allowed).toBe(false);
      expect(!decision.allowed && decision.reason).toContain(`--allow ${kind}`);
      expect(!decision.allowed && decision.reason).toContain('--permission-mode auto');
    }
  });

  it('allows the kinds named with --allow', async () => {
    const gate = headlessGate({ allow: ['write', 'exec'] });
    expect(await gate.check('write', question('write_file', 'write'))).toEqual({ allowed: true });
    expect(await gate.check('exec', question('exec', 'exec'))).toEqual({ allowed: true });
    expect((await gate.check('ssh', question('ssh_exec', 'ssh'))).allowed).toBe(false);
  });

  it('in auto mode allows everything', async () => {
    const gate = headlessGate({ mode: 'auto' });
    expect(await gate.check('ssh', question('ssh_exec', 'ssh'))).toEqual({ allowed: true });
  });

  it('refuses a question asked mid-run without pointing at a flag that cannot help', async () => {
    const gate = headlessGate({ mode: 'auto' });
    const decision = await gate.ask('ssh', question('ssh_exec', 'ssh'));
    expect(!decision.allowed && decision.reason).toMatch(/nobody can answer a question in a headless run/);
    expect(!decision.allowed && decision.reason).not.toMatch(/--allow/);
  });
});

describe('rulesForMode', () => {
  it('read-only denies every kind that changes something, and asks before a web fetch', () => {
    expect(rulesForMode('read-only')).toEqual({
      read: 'allow',
      write: 'deny',
      exec: 'deny',
      ssh: 'deny',
      code: 'allow',
      net: 'ask',
    });
  });

  it('review asks only before writes (shown hunk by hunk) and runs the rest', () => {
    expect(rulesForMode('review')).toEqual({
      read: 'allow',
      write: 'ask',
      exec: 'allow',
      ssh: 'allow',
      code: 'allow',
      net: 'allow',
    });
  });
});

describe('parseAllowList', () => {
  it('reads a comma-separated list of kinds', () => {
    expect(parseAllowList('write, exec,ssh')).toEqual(['write', 'exec', 'ssh']);
  });

  it('names the unknown kind and the known ones', () => {
    expect(() => parseAllowList('write,shell')).toThrow(
      /Unknown tool kind in --allow: shell\. Use a comma-separated list of read, write, exec, ssh, code/,
    );
  });
});
