import { describe, expect, it } from 'vitest';
import type { ApprovalAnswer } from '../../protocol/events.ts';
import { DEFAULT_RULES, PendingApprovals, PermissionGate, type ApprovalQuestion } from './permission-gate.ts';

// A question that nobody answered because the call or its turn was stopped (Esc) is reported as
// stopped, not as the person's denial; a denial the person gave is reported as theirs.

function gateRecording() {
  const resolved: Array<{ callId: string; answer: ApprovalAnswer; stopped: boolean }> = [];
  const asked: string[] = [];
  const approvals = new PendingApprovals(
    (question) => asked.push(question.callId),
    (callId, answer, stopped) => resolved.push({ callId, answer, stopped }),
  );
  return { gate: new PermissionGate(DEFAULT_RULES, approvals), approvals, resolved, asked };
}

function question(signal: AbortSignal): ApprovalQuestion {
  return {
    callId: 'c1',
    name: 'exec',
    request: { title: 'Run npm test', detail: 'npm test', scope: 'exec' },
    signal,
  };
}

describe('a pending approval', () => {
  it('stopped while it waits is recorded as stopped before approval, not denied by the person', async () => {
    const { gate, resolved, asked } = gateRecording();
    const controller = new AbortController();
    const decision = gate.check('exec', question(controller.signal));
    expect(asked).toEqual(['c1']);
    controller.abort();
    await expect(decision).resolves.toEqual({
      allowed: false,
      reason: 'Cancelled: stopped while waiting for approval of Run npm test.',
    });
    expect(resolved).toEqual([{ callId: 'c1', answer: 'deny', stopped: true }]);
  });

  it('denied by the person is recorded as their denial', async () => {
    const { gate, approvals, resolved } = gateRecording();
    const decision = gate.check('exec', question(new AbortController().signal));
    expect(approvals.answer('c1', 'deny')).toBe(true);
    await expect(decision).resolves.toEqual({ allowed: false, reason: 'Denied by the user: Run npm test.' });
    expect(resolved).toEqual([{ callId: 'c1', answer: 'deny', stopped: false }]);
  });
});
