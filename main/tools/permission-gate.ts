import type { PermissionMode, PermissionRuleLists } from '../../protocol/api.ts';
import type { ApprovalAnswer, ApprovalRequest } from '../../protocol/events.ts';
import { rejectedEverything, type ReviewChoice, type WriteReview } from '../../protocol/review.ts';
import {
  EMPTY_RULES,
  matchRules,
  narrowRules,
  parseRule,
  parseRuleLists,
  type PermissionRule,
  type RuleEffect,
  type RuleSubject,
} from './permission-rules.ts';
import { protectedReason } from './protected-paths.ts';
import type { ToolKind } from './tool.ts';
import type { SandboxRules } from '../../protocol/sandbox.ts';

// The permission gate. A call is judged in this order: a matching deny rule refuses it; a write to
// a protected path asks (unless protected paths are bypassed); a matching ask rule asks; a matching
// allow rule (or one the person added with "Always") lets it run; otherwise its kind's default
// from the permission mode decides. `ask` goes to whoever answers (the panel, or a headless policy).

export type GateRule = 'allow' | 'ask' | 'deny';
export type GateRules = Record<ToolKind, GateRule>;

/** What a call does, for rules: its paths (each with its access) and its command. */
export interface GateSubject extends RuleSubject {
  paths?: { named: string; real: string; access: 'read' | 'write' }[];
  /** Path rules compare without case (the workspace's file system ignores it). */
  foldCase?: boolean;
  /** The person's allow / ask / deny for this one tool (an MCP tool, on the MCP servers screen). */
  toolPolicy?: { effect: RuleEffect; rule: string };
  /** The call asks to run outside the sandbox the mode runs its kind in. */
  outsideSandbox?: boolean;
}

/** Why the gate asks: the headless policy words its refusal after it. */
export type AskCause =
  | { kind: 'protected'; path: string; why: string }
  | { kind: 'rule'; rule: string }
  | { kind: 'mode' }
  | { kind: 'sandbox' };

export interface ApprovalQuestion {
  callId: string;
  parentCallId?: string;
  name: string;
  request: ApprovalRequest;
  signal: AbortSignal;
  /** Called when the question goes to the approver; what it returns is called when the answer comes. */
  onApprovalWait?: () => () => void;
  /** Set by the gate when a call's judgement asks (absent for a tool's own mid-run question). */
  cause?: AskCause;
  /** A write's change as hunks, computed only when the question goes to someone who can review it. */
  review?: () => Promise<WriteReview | null>;
}

/** An answer with the person's hunk-by-hunk review of a write. */
export interface ApprovalReply {
  answer: ApprovalAnswer;
  review?: ReviewChoice;
}

/** Answers `ask`. The panel's answerer emits an approval request and waits for the person. */
export interface Approver {
  ask(question: ApprovalQuestion): Promise<ApprovalAnswer | ApprovalReply>;
  /** The answerer can show a write's hunks and answer per hunk (the panel). */
  readonly reviews?: boolean;
}

export type GateDecision = { allowed: true; review?: ReviewChoice } | { allowed: false; reason: string };

export const DEFAULT_RULES: GateRules = {
  read: 'allow',
  write: 'ask',
  exec: 'ask',
  ssh: 'ask',
  code: 'allow',
  net: 'ask',
};
export const ALLOW_ALL: GateRules = {
  read: 'allow',
  write: 'allow',
  exec: 'allow',
  ssh: 'allow',
  code: 'allow',
  net: 'allow',
};

export interface GateOptions {
  /** Allow / ask / deny rules with patterns (settings, CLI flags). */
  rules?: PermissionRuleLists;
  /** Writes to protected paths go through without asking (the `bypass` mode). */
  bypassProtected?: boolean;
}

type Verdict = { effect: RuleEffect; cause: AskCause };

export class PermissionGate {
  private readonly rules: GateRules;
  private readonly approver: Approver;
  private lists: Record<RuleEffect, PermissionRule[]>;
  /** Narrow rules the person allowed with "Always" in this session. */
  private readonly sessionAllow: PermissionRule[] = [];
  private bypassProtected: boolean;
  /** The kinds some rule or grant names, made again after the lists or the grants change. */
  private ruledKinds: ReadonlySet<ToolKind> | null = null;
  /** The rules of the sandbox commands run in (the `sandbox` mode); null: none. */
  private sandboxRules: SandboxRules | null = null;
  /** The permission mode its rules come from; null for a gate made of rules alone. */
  private permissionMode: PermissionMode | null = null;

  constructor(rules: GateRules, approver: Approver, options: GateOptions = {}) {
    this.rules = { ...rules };
    this.approver = approver;
    this.lists = parseRuleLists(options.rules ?? EMPTY_RULES);
    this.bypassProtected = options.bypassProtected ?? false;
  }

  rule(kind: ToolKind): GateRule {
    return this.rules[kind];
  }

  setRule(kind: ToolKind, rule: GateRule): void {
    this.rules[kind] = rule;
  }

  /** Replaces the rule lists; an invalid rule throws and leaves the old lists in place. */
  setRuleLists(lists: PermissionRuleLists): void {
    this.lists = parseRuleLists(lists);
    this.ruledKinds = null;
  }

  setBypassProtected(bypass: boolean): void {
    this.bypassProtected = bypass;
  }

  /** The sandbox commands run in from now on; null: they run outside it, as the rules allow. */
  setSandbox(rules: SandboxRules | null): void {
    this.sandboxRules = rules;
  }

  get sandbox(): SandboxRules | null {
    return this.sandboxRules;
  }

  setMode(mode: PermissionMode): void {
    this.permissionMode = mode;
  }

  /** The permission mode its rules come from (the system prompt tells the model of plan mode). */
  get mode(): PermissionMode | null {
    return this.permissionMode;
  }

  /** The rules "Always for this session" answers added, as written, in the order they were. */
  sessionGrants(): string[] {
    return [...new Set(this.sessionAllow.map((rule) => rule.text))];
  }

  /** Takes an "Always" back: its calls ask again. False when no such grant is held. */
  revokeGrant(text: string): boolean {
    const before = this.sessionAllow.length;
    for (let i = this.sessionAllow.length - 1; i >= 0; i--)
      if (this.sessionAllow[i]?.text === text) this.sessionAllow.splice(i, 1);
    this.ruledKinds = null;
    return this.sessionAllow.length < before;
  }

  /** The call runs without a question: the rules, the tool's own policy or the mode allow it. */
  admits(kind: ToolKind, subject: GateSubject = {}): boolean {
    // Most calls: no rule or grant names their kind and the tool has no policy of its own, so the
    // mode decides (a write still looks at protected paths, which only judge knows).
    if (!subject.toolPolicy && !subject.outsideSandbox && kind !== 'write' && !this.ruled().has(kind))
      return this.rules[kind] === 'allow';
    return this.judge(kind, subject).effect === 'allow';
  }

  /**
   * The allow rule the person wrote (Settings, --allow-rule) whose pattern names this subject; null
   * when none does. A bare kind, the mode and "Always" answers never count: what needs this (a
   * fetch from a private address) must have been named on purpose. A deny or ask rule still wins.
   */
  namedAllowRule(kind: ToolKind, subject: GateSubject): string | null {
    const options = { foldCase: subject.foldCase ?? false };
    const named = { allow: this.lists.allow.filter((rule) => rule.pattern !== null), ask: [], deny: [] };
    if (matchRules({ ...this.lists, allow: [] }, kind, subject, options)) return null;
    const match = matchRules(named, kind, subject, options);
    return match?.effect === 'allow' ? match.rule : null;
  }

  private ruled(): ReadonlySet<ToolKind> {
    const { deny, ask, allow } = this.lists;
    this.ruledKinds ??= new Set([...deny, ...ask, ...allow, ...this.sessionAllow].map((rule) => rule.kind));
    return this.ruledKinds;
  }

  async check(kind: ToolKind, question: ApprovalQuestion, subject: GateSubject = {}): Promise<GateDecision> {
    const verdict = this.judge(kind, subject);
    if (verdict.effect === 'allow') return { allowed: true };
    if (verdict.effect === 'deny') {
      if (verdict.cause.kind !== 'rule')
        return { allowed: false, reason: `Denied: ${question.name} (${kind}) is not allowed in this session.` };
      return {
        allowed: false,
        reason: `Denied: ${question.name} (${question.request.title}) matches the deny rule ${verdict.cause.rule}. Ask the person to change the rule in Settings if this call should run.`,
      };
    }
    const always = verdict.cause.kind === 'protected' ? [] : narrowRules(kind, subject);
    const request: ApprovalRequest = {
      ...question.request,
      ...(verdict.cause.kind === 'protected'
        ? { warning: `${verdict.cause.path} is a protected path: ${verdict.cause.why}.` }
        : {}),
      ...(always.length > 0 ? { always_rules: always } : {}),
    };
    const { decision, answer } = await this.answer({ ...question, request, cause: verdict.cause });
    if (decision.allowed && answer === 'session') {
      this.sessionAllow.push(...always.map(parseRule));
      this.ruledKinds = null;
    }
    return decision;
  }

  /**
   * Ask regardless of the rule (a tool's mid-run question, such as an unknown host key). An answer
   * for the session allows this question only: it was about what the tool found, not about the kind.
   */
  async ask(_kind: ToolKind, question: ApprovalQuestion): Promise<GateDecision> {
    return (await this.answer(question)).decision;
  }

  private judge(kind: ToolKind, subject: GateSubject): Verdict {
    const options = { foldCase: subject.foldCase ?? false };
    const configured = matchRules(this.lists, kind, subject, options);
    if (configured?.effect === 'deny') return { effect: 'deny', cause: { kind: 'rule', rule: configured.rule } };
    const policy = subject.toolPolicy;
    if (policy) return { effect: policy.effect, cause: { kind: 'rule', rule: policy.rule } };
    // A command's folder is not what it writes: exec and ssh are judged as commands.
    const writes = kind === 'write' ? (subject.paths ?? []).filter((entry) => entry.access === 'write') : [];
    const sensitive = this.bypassProtected ? null : protectedReason(writes);
    if (sensitive) return { effect: 'ask', cause: { kind: 'protected', ...sensitive } };
    if (configured) return { effect: configured.effect, cause: { kind: 'rule', rule: configured.rule } };
    const remembered = matchRules({ allow: this.sessionAllow, ask: [], deny: [] }, kind, subject, options);
    if (remembered) return { effect: 'allow', cause: { kind: 'rule', rule: remembered.rule } };
    // The mode allows this kind because the sandbox holds it: outside the sandbox, the person decides.
    if (subject.outsideSandbox && this.sandboxRules && this.rules[kind] === 'allow')
      return { effect: 'ask', cause: { kind: 'sandbox' } };
    return { effect: this.rules[kind], cause: { kind: 'mode' } };
  }

  private async answer(question: ApprovalQuestion): Promise<{ decision: GateDecision; answer?: ApprovalAnswer }> {
    let reply: ApprovalReply;
    const waited = question.onApprovalWait?.();
    let review: WriteReview | null = null;
    try {
      review = this.approver.reviews && question.review ? await question.review() : null;
      const asked = review ? { ...question, request: { ...question.request, review } } : question;
      const given = await this.approver.ask(asked);
      reply = typeof given === 'string' ? { answer: given } : given;
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
    const { answer } = reply;
    const choice = review ? reply.review : undefined;
    if (review && choice && choice.hunks.length > 0 && choice.hunks.every((hunk) => !hunk.accept)) {
      return { decision: { allowed: false, reason: rejectedEverything(review, choice.note) }, answer };
    }
    if (answer === 'deny') {
      const note = choice?.note?.trim() ? ` Note from the person: ${choice.note.trim()}` : '';
      return { decision: { allowed: false, reason: `Denied by the user: ${question.request.title}.${note}` }, answer };
    }
    return { decision: { allowed: true, ...(choice ? { review: choice } : {}) }, answer };
  }
}

/** A pending-question book: the panel API answers by call id. */
export class PendingApprovals implements Approver {
  readonly reviews = true;
  private readonly pending = new Map<string, (answer: ApprovalAnswer, review?: ReviewChoice) => void>();
  private readonly announce: (question: ApprovalQuestion) => void;
  /** `stopped`: nobody answered; the call or its turn was stopped while the question waited. */
  private readonly resolved: (callId: string, answer: ApprovalAnswer, stopped: boolean) => void;

  constructor(
    announce: (question: ApprovalQuestion) => void,
    resolved: (callId: string, answer: ApprovalAnswer, stopped: boolean) => void,
  ) {
    this.announce = announce;
    this.resolved = resolved;
  }

  ask(question: ApprovalQuestion): Promise<ApprovalReply> {
    return new Promise((resolve) => {
      const finish = (answer: ApprovalAnswer, review?: ReviewChoice, stopped = false): void => {
        if (!this.pending.delete(question.callId)) return;
        question.signal.removeEventListener('abort', onAbort);
        this.resolved(question.callId, answer, stopped);
        resolve({ answer, ...(review ? { review } : {}) });
      };
      const onAbort = (): void => finish('deny', undefined, true);
      if (question.signal.aborted) return resolve({ answer: 'deny' });
      this.pending.set(question.callId, finish);
      question.signal.addEventListener('abort', onAbort, { once: true });
      this.announce(question);
    });
  }

  /** Answer a pending question (with a write's review); false when nothing waits under that call id. */
  answer(callId: string, answer: ApprovalAnswer, review?: ReviewChoice): boolean {
    const finish = this.pending.get(callId);
    if (!finish) return false;
    finish(answer, review);
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
