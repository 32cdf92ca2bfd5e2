import type { PermissionRuleLists } from '../../../protocol/api.ts';
import {
  DEFAULT_RULES,
  PermissionGate,
  RefuseApprover,
  type ApprovalQuestion,
  type GateDecision,
  type GateRule,
  type GateSubject,
} from '../../tools/permission-gate.ts';
import type { ToolKind } from '../../tools/tool.ts';

// A child session's gate: its parent's, seen through the child. Every judgement, rule and "Always"
// is the parent's (the child can do no more than its parent may, and a grant the person gives a
// child's question holds for the parent too); a question names the child and shows on the card of
// the `agent` call that started it. An agent whose definition is read-only is refused every call
// that is not a read before its parent's gate is even asked.

export interface ChildGateOptions {
  /** The agent's name, as its questions say it. */
  agent: string;
  /** The parent's `agent` call: its card shows the child's questions. */
  callId: string;
  /** Only reads: the agent's definition asks for read-only. */
  readOnly?: boolean;
}

export class ChildGate extends PermissionGate {
  private readonly parent: PermissionGate;
  private readonly child: ChildGateOptions;

  constructor(parent: PermissionGate, child: ChildGateOptions) {
    // Its own rules and approver are never used: every judgement goes to the parent.
    super(DEFAULT_RULES, new RefuseApprover(() => 'A child gate never asks on its own.'));
    this.parent = parent;
    this.child = child;
  }

  override rule(kind: ToolKind): GateRule {
    if (this.denies(kind)) return 'deny';
    return this.parent.rule(kind);
  }

  override setRule(kind: ToolKind, rule: GateRule): void {
    this.parent.setRule(kind, rule);
  }

  override setRuleLists(lists: PermissionRuleLists): void {
    this.parent.setRuleLists(lists);
  }

  override setBypassProtected(bypass: boolean): void {
    this.parent.setBypassProtected(bypass);
  }

  override sessionGrants(): string[] {
    return this.parent.sessionGrants();
  }

  override revokeGrant(text: string): boolean {
    return this.parent.revokeGrant(text);
  }

  override admits(kind: ToolKind, subject?: GateSubject): boolean {
    return !this.denies(kind) && this.parent.admits(kind, subject);
  }

  override namedAllowRule(kind: ToolKind, subject: GateSubject): string | null {
    return this.parent.namedAllowRule(kind, subject);
  }

  override async check(kind: ToolKind, question: ApprovalQuestion, subject?: GateSubject): Promise<GateDecision> {
    if (this.denies(kind)) return this.readOnlyRefusal(question, kind);
    return this.parent.check(kind, this.named(question), subject);
  }

  override async ask(kind: ToolKind, question: ApprovalQuestion): Promise<GateDecision> {
    if (this.denies(kind)) return this.readOnlyRefusal(question, kind);
    return this.parent.ask(kind, this.named(question));
  }

  private denies(kind: ToolKind): boolean {
    return this.child.readOnly === true && kind !== 'read';
  }

  private readOnlyRefusal(question: ApprovalQuestion, kind: ToolKind): GateDecision {
    return {
      allowed: false,
      reason: `Denied: the agent ${this.child.agent} is read-only, so ${question.name} (${kind}) is not allowed. Report what should change instead.`,
    };
  }

  /** The question as the parent's view shows it: on the `agent` card, naming the child. */
  private named(question: ApprovalQuestion): ApprovalQuestion {
    return {
      ...question,
      // Siblings' call ids may be alike (a model's own ids): the question is known by both.
      callId: `${this.child.callId}/${question.callId}`,
      parentCallId: this.child.callId,
      request: { ...question.request, title: `Agent ${this.child.agent}: ${question.request.title}` },
    };
  }
}
