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
