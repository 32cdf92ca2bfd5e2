import { describe, expect, it } from 'vitest';
import type { ApprovalAnswer } from '../../protocol/events.ts';
import { DEFAULT_RULES, PermissionGate, type Approver } from './permission-gate.ts';

/** An approver that always gives the same answer. */
const answering = (answer: ApprovalAnswer): Approver => ({ ask: async () => answer });

const question = (title: string) => ({
  callId: 'c1',
  name: 'ssh_exec',
  request: { title, detail: '', scope: 'ssh' },
  signal: new AbortController().signal,
});

describe('PermissionGate', () => {
  it('keeps asking for a kind after a question asked mid-run is answered for the session', async () => {
    const gate = new PermissionGate(DEFAULT_RULES, answering('session'));
    // "Always for this session" on a host key is about that key, not about running every ssh command.
    expect(await gate.ask('ssh', question('Trust the host key of example?'))).toEqual({ allowed: true });
    expect(gate.rule('ssh')).toBe('ask');
  });
});

describe('PermissionGate rules', () => {
  const execQuestion = (command: string) => ({
    callId: `c-${command}`,
    name: 'exec',
    request: { title: 'Run a command', detail: command, scope: 'exec' },
    signal: new AbortController().signal,
  });
  const execSubject = (line: string) => ({ command: { prefix: '', line } });

  it('offers the narrow rule on "Always" and allows only that command afterwards', async () => {
    const offered: (string[] | undefined)[] = [];
    const gate = new PermissionGate(DEFAULT_RULES, {
      ask: async (asked) => {
        offered.push(asked.request.always_rules);
        return 'session';
      },
    });
    expect(await gate.check('exec', execQuestion('npm test'), execSubject('npm test'))).toEqual({ allowed: true });
    expect(offered).toEqual([['exec(npm test)']]);
    // Allowed again without a question; another command still asks.
    expect(await gate.check('exec', execQuestion('npm test'), execSubject('npm test'))).toEqual({ allowed: true });
    expect(offered).toHaveLength(1);
    await gate.check('exec', execQuestion('rm -rf build'), execSubject('rm -rf build'));
    expect(offered).toEqual([['exec(npm test)'], ['exec(rm -rf build)']]);
    expect(gate.rule('exec')).toBe('ask');
  });

  it('lets a deny rule win over the mode, an allow rule and an "Always" answer', async () => {
    const gate = new PermissionGate({ ...DEFAULT_RULES, exec: 'allow' }, answering('session'), {
      rules: { allow: ['exec(git *)'], ask: [], deny: ['exec(git push *)'] },
    });
    const decision = await gate.check('exec', execQuestion('git push'), execSubject('git push --force'));
    expect(decision).toEqual({
      allowed: false,
      reason: expect.stringMatching(/matches the deny rule exec\(git push \*\)/),
    });
    expect(await gate.check('exec', execQuestion('git status'), execSubject('git status'))).toEqual({ allowed: true });
  });

  it('asks for a call an ask rule names even in a mode that allows everything', async () => {
    const asked: string[] = [];
    const gate = new PermissionGate(
      { ...DEFAULT_RULES, exec: 'allow' },
      {
        ask: async (question) => {
          asked.push(question.request.detail);
          return 'deny';
        },
      },
      { rules: { allow: [], ask: ['exec(npm publish *)'], deny: [] } },
    );
    expect(await gate.check('exec', execQuestion('npm publish'), execSubject('npm publish'))).toMatchObject({
      allowed: false,
    });
    expect(await gate.check('exec', execQuestion('npm test'), execSubject('npm test'))).toEqual({ allowed: true });
    expect(asked).toEqual(['npm publish']);
  });

  it('refuses rule lists that do not parse and keeps the old ones', async () => {
    const gate = new PermissionGate(DEFAULT_RULES, answering('deny'), {
      rules: { allow: ['exec'], ask: [], deny: [] },
    });
    expect(() => gate.setRuleLists({ allow: ['exec('], ask: [], deny: [] })).toThrow(/not a permission rule/);
    expect(await gate.check('exec', execQuestion('ls'), execSubject('ls'))).toEqual({ allowed: true });
  });
});

describe('PermissionGate and net calls', () => {
  const fetchQuestion = (host: string) => ({
    callId: `c-${host}`,
    name: 'web_fetch',
    request: { title: `Fetch a page from ${host}`, detail: `https://${host}/`, scope: 'net' },
    signal: new AbortController().signal,
  });

  it('asks in the default mode, naming the host, and "Always" allows that host alone afterwards', async () => {
    const asked: { title: string; always?: string[] }[] = [];
    const gate = new PermissionGate(DEFAULT_RULES, {
      ask: async (question) => {
        asked.push({ title: question.request.title, always: question.request.always_rules });
        return 'session';
      },
    });
    expect(await gate.check('net', fetchQuestion('docs.python.org'), { host: 'docs.python.org' })).toEqual({
      allowed: true,
    });
    expect(await gate.check('net', fetchQuestion('docs.python.org'), { host: 'docs.python.org' })).toEqual({
      allowed: true,
    });
    await gate.check('net', fetchQuestion('pypi.org'), { host: 'pypi.org' });
    expect(asked).toEqual([
      { title: 'Fetch a page from docs.python.org', always: ['net(docs.python.org)'] },
      { title: 'Fetch a page from pypi.org', always: ['net(pypi.org)'] },
    ]);
  });

  it('names a host for a private address only through an allow rule with a pattern the person wrote', async () => {
    const gate = new PermissionGate(DEFAULT_RULES, answering('session'), {
      rules: { allow: ['net', 'net(*.corp.example)', 'net(localhost)'], ask: [], deny: ['net(db.corp.example)'] },
    });
    expect(gate.namedAllowRule('net', { host: 'wiki.corp.example' })).toBe('net(*.corp.example)');
    expect(gate.namedAllowRule('net', { host: 'localhost' })).toBe('net(localhost)');
    // The bare `net` rule allows every host, but names none.
    expect(gate.namedAllowRule('net', { host: '127.0.0.1' })).toBeNull();
    expect(gate.namedAllowRule('net', { host: 'db.corp.example' })).toBeNull();
    // An "Always" answer is not a rule the person wrote.
    await gate.check('net', fetchQuestion('10.0.0.5'), { host: '10.0.0.5' });
    expect(gate.namedAllowRule('net', { host: '10.0.0.5' })).toBeNull();
  });
});
