import { describe, expect, it } from 'vitest';
import { ALLOW_ALL, DEFAULT_RULES, PendingApprovals, PermissionGate, type GateSubject } from './permission-gate.ts';
import type { ToolKind } from './tool.ts';

// The gate's quick answer for a call the rules admit (no question is built for it) agrees with its
// full judgement: rules, an MCP tool's own policy, "Always" grants and protected paths included.

const KINDS: ToolKind[] = ['read', 'write', 'exec', 'ssh', 'code'];

function gate(options: ConstructorParameters<typeof PermissionGate>[2] = {}, rules = DEFAULT_RULES) {
  return new PermissionGate(
    rules,
    new PendingApprovals(
      () => undefined,
      () => undefined,
    ),
    options,
  );
}

async function judged(subject: GateSubject, kind: ToolKind, on: PermissionGate): Promise<boolean> {
  // A question the gate would ask is withdrawn at once: only an admitted call comes back allowed.
  const stop = new AbortController();
  stop.abort();
  const question = { callId: 'c', name: 't', request: { title: 't', detail: '', scope: kind }, signal: stop.signal };
  return (await on.check(kind, question, subject)).allowed;
}

describe('the gate admitting a call without a question', () => {
  it('follows the mode for kinds no rule names', async () => {
    const byMode = gate();
    for (const kind of KINDS) expect(byMode.admits(kind)).toBe(DEFAULT_RULES[kind] === 'allow');
    for (const kind of KINDS) expect(gate({}, ALLOW_ALL).admits(kind)).toBe(true);
  });

  it('asks when a rule names the kind, or the tool’s own policy says so, as check does', async () => {
    const ruled = gate({ rules: { allow: [], ask: ['read(secrets/**)'], deny: ['exec(rm *)'] } }, ALLOW_ALL);
    const cases: [ToolKind, GateSubject][] = [
      ['read', { paths: [{ named: 'secrets/a', real: 'secrets/a', access: 'read' }] }],
      ['read', { paths: [{ named: 'src/a', real: 'src/a', access: 'read' }] }],
      ['exec', { command: { prefix: '', line: 'rm -rf x' } }],
      ['exec', { command: { prefix: '', line: 'ls' } }],
      ['exec', { toolPolicy: { effect: 'ask', rule: 'ask for mcp__s__t on the MCP servers screen' } }],
      ['write', { paths: [{ named: '.git/config', real: '.git/config', access: 'write' }] }],
      ['code', {}],
    ];
    for (const [kind, subject] of cases) expect(ruled.admits(kind, subject)).toBe(await judged(subject, kind, ruled));
    expect(ruled.admits('exec', { command: { prefix: '', line: 'rm -rf x' } })).toBe(false);
    expect(ruled.admits('exec', { toolPolicy: { effect: 'ask', rule: 'ask' } })).toBe(false);
    expect(ruled.admits('write', { paths: [{ named: '.git/config', real: '.git/config', access: 'write' }] })).toBe(
      false,
    );
  });

  it('admits what an "Always for this session" answer allowed, and asks again once it is revoked', async () => {
    const asked: string[] = [];
    const approvals = new PendingApprovals(
      (question) => asked.push(question.callId),
      () => undefined,
    );
    const session = new PermissionGate(DEFAULT_RULES, approvals);
    const subject: GateSubject = { command: { prefix: '', line: 'npm test' } };
    expect(session.admits('exec', subject)).toBe(false);
    const question = {
      callId: 'c1',
      name: 'exec',
      request: { title: 'Run npm test', detail: '', scope: 'exec' as const },
      signal: new AbortController().signal,
    };
    const decision = session.check('exec', question, subject);
    expect(approvals.answer('c1', 'session')).toBe(true);
    await expect(decision).resolves.toEqual({ allowed: true });
    expect(session.admits('exec', subject)).toBe(true);
    expect(session.revokeGrant(session.sessionGrants()[0]!)).toBe(true);
    expect(session.admits('exec', subject)).toBe(false);
  });
});
