import type { ApprovalAnswer, ApprovalRequest } from '../../protocol/events.ts';
import type { ToolKind } from './tool.ts';

// The permission gate: allow / ask / deny per tool kind. `ask` goes to whoever answers (the
// panel, or a headless policy); an answer of `session` allows that kind for the rest of the session.

export type GateRule = 'allow' | 'ask' | 'deny';
export type GateRules = Record<ToolKind, GateRule>;

export interface ApprovalQuestion {
  callId: string;
  parentCallId?: string;
  name: string;
  request: ApprovalRequest;
  signal: AbortSignal;
  /** Called when the question goes to the approver; what it returns is called when the answer comes. */
  onApprovalWait?: () => () => void;
}

/** Answers `ask`. The panel's answerer emits an approval request and waits for the person. */
export interface Approver {
  ask(question: ApprovalQuestion): Promise<ApprovalAnswer>;
}

export type GateDecision = { allowed: true } | { allowed: false; reason: string };

export const DEFAULT_RULES: GateRules = { read: 'allow', write: 'ask', exec: 'ask', ssh: 'ask', code: 'allow' };
export const ALLOW_ALL: GateRules = { read: 'allow', write: 'allow', exec: 'allow', ssh: 'allow', code: 'allow' };

export class PermissionGate {
  private readonly rules: GateRules;
  private readonly approver: Approver;

  constructor(rules: GateRules, approver: Approver) {
    this.rules = { ...rules };
    this.approver = approver;
  }

  rule(kind: ToolKind): GateRule {
    return this.rules[kind];
  }

  setRule(kind: ToolKind, rule: GateRule): void {
    this.rules[kind] = rule;
  }

  async check(kind: ToolKind, question: ApprovalQuestion): Promise<GateDecision> {
    const rule = this.rules[kind];
    if (rule === 'allow') return { allowed: true };
    if (rule === 'deny') {
      return { allowed: false, reason: `Denied: ${question.name} (${kind}) is not allowed in this session.` };
    }
    const { decision, answer } = await this.answer(question);
    if (decision.allowed && answer === 'session') this.rules[kind] = 'allow';
    return decision;
  }

  /**
   * Ask regardless of the rule (a tool's mid-run question, such as an unknown host key). An answer
   * for the session allows this question only: it was about what the tool found, not about the kind.
   */
  async ask(_kind: ToolKind, question: ApprovalQuestion): Promise<GateDecision> {
    return (await this.answer(question)).decision;
  }

  private async answer(question: ApprovalQuestion): Promise<{ decision: GateDecision; answer?: ApprovalAnswer }> {
    let answer: ApprovalAnswer;
    const waited = question.onApprovalWait?.();
    try {
      answer = await this.approver.ask(question);
    } catch (error) {
      if (error instanceof GateRefusal) return { decision: { allowed: false, reason: error.message } };
      throw error;
    } finally {
      waited?.();
    }
    if (question.signal.aborted)
      return {
        decision: {
          allowed: false,
          reason: `Cancelled: stopped while waiting for approval of ${question.request.title}.`,
        },
      };
    if (answer === 'deny')
      return { decision: { allowed: false, reason: `Denied by the user: ${question.request.title}.` }, answer };
    return { decision: { allowed: true }, answer };
  }
}

/** A pending-question book: the panel API answers by call id. */
export class PendingApprovals implements Approver {
  private readonly pending = new Map<string, (answer: ApprovalAnswer) => void>();
  private readonly announce: (question: ApprovalQuestion) => void;
  private readonly resolved: (callId: string, answer: ApprovalAnswer) => void;

  constructor(
    announce: (question: ApprovalQuestion) => void,
    resolved: (callId: string, answer: ApprovalAnswer) => void,
  ) {
    this.announce = announce;
    this.resolved = resolved;
  }

  ask(question: ApprovalQuestion): Promise<ApprovalAnswer> {
    return new Promise((resolve) => {
      const finish = (answer: ApprovalAnswer): void => {
        if (!this.pending.delete(question.callId)) return;
        question.signal.removeEventListener('abort', onAbort);
        this.resolved(question.callId, answer);
        resolve(answer);
      };
      const onAbort = (): void => finish('deny');
      if (question.signal.aborted) return resolve('deny');
      this.pending.set(question.callId, finish);
      question.signal.addEventListener('abort', onAbort, { once: true });
      this.announce(question);
    });
  }

  /** Answer a pending question; false when nothing waits under that call id. */
  answer(callId: string, answer: ApprovalAnswer): boolean {
    const finish = this.pending.get(callId);
    if (!finish) return false;
    finish(answer);
    return true;
  }

  get waiting(): string[] {
    return [...this.pending.keys()];
  }
}

/** Headless: nobody can answer, so every `ask` is refused with what to pass instead. */
export class RefuseApprover implements Approver {
  private readonly hint: (question: ApprovalQuestion) => string;

  constructor(hint: (question: ApprovalQuestion) => string) {
    this.hint = hint;
  }

  async ask(question: ApprovalQuestion): Promise<ApprovalAnswer> {
    throw new GateRefusal(this.hint(question));
  }
}

export class GateRefusal extends Error {
  override name = 'GateRefusal';
}
