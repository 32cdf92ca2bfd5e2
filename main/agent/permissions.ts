import type { PermissionMode, PermissionRuleLists } from '../../protocol/api.ts';
import {
  ALLOW_ALL,
  DEFAULT_RULES,
  PermissionGate,
  RefuseApprover,
  type Approver,
  type ApprovalQuestion,
  type GateRules,
} from '../tools/permission-gate.ts';
import type { ToolKind } from '../tools/tool.ts';
import { PERMISSION_MODES, TOOL_KINDS } from '../../protocol/values.ts';
import { DEFAULT_SANDBOX_RULES, READ_ONLY_SANDBOX_RULES, type SandboxRules } from '../../protocol/sandbox.ts';
import { sandboxSupport, unavailableNotice } from '../tools/sandbox/sandbox-support.ts';

// Permission modes as gate rules, and the headless gate: with nobody to answer `ask`, reads go
// through and everything else is refused with the flag that would allow it.

/** Web pages change nothing here, but a URL can carry what the model read: they ask, as in `ask`. */
const READ_ONLY: GateRules = { read: 'allow', write: 'deny', exec: 'deny', ssh: 'deny', code: 'allow', net: 'ask' };
/** Every file write is shown hunk by hunk before it lands; the rest runs (the Changes card shows what commands changed). */
const REVIEW_WRITES: GateRules = { ...ALLOW_ALL, write: 'ask' };
/**
 * Plan: look, never change. A command runs without a question in a read-only sandbox (the workspace
 * read-only too, no network) where one can start; elsewhere it asks, and the person judges whether
 * it only reads.
 */
const PLAN: GateRules = { ...READ_ONLY, exec: 'ask' };

/**
 * `sandbox` runs commands without a question only where the sandbox can start; elsewhere it is
 * `ask` (sandboxReady says which, probed once: sandbox-support.ts).
 */
export function rulesForMode(mode: PermissionMode, sandboxReady: () => boolean = sandboxCanStart): GateRules {
  if (mode === 'sandbox') return { ...DEFAULT_RULES, exec: sandboxReady() ? 'allow' : 'ask' };
  if (mode === 'review') return { ...REVIEW_WRITES };
  if (mode === 'auto' || mode === 'bypass') return { ...ALLOW_ALL };
  if (mode === 'read-only') return { ...READ_ONLY };
  if (mode === 'plan') return { ...PLAN, exec: sandboxReady() ? 'allow' : 'ask' };
  return { ...DEFAULT_RULES };
}

/** Only `bypass` writes protected paths (.git/, .aethercodex/, editor task files) without asking. */
export function bypassesProtectedPaths(mode: PermissionMode): boolean {
  return mode === 'bypass';
}

function sandboxCanStart(): boolean {
  return sandboxSupport().available;
}

/**
 * The sandbox a mode runs commands in where one can start: the `sandbox` mode's rules, the plan
 * mode's read-only one; else none.
 */
export function sandboxOf(mode: PermissionMode, rules: SandboxRules | undefined): SandboxRules | null {
  if (!sandboxCanStart()) return null;
  if (mode === 'sandbox') return rules ?? DEFAULT_SANDBOX_RULES;
  return mode === 'plan' ? READ_ONLY_SANDBOX_RULES : null;
}

/** The line a host says once when the sandbox mode cannot sandbox here; null when it can. */
export function sandboxUnavailable(): string | null {
  const support = sandboxSupport();
  return support.available ? null : unavailableNotice(support);
}

export function isPermissionMode(value: string): value is PermissionMode {
  return (PERMISSION_MODES as readonly string[]).includes(value);
}

/** `write,exec` → ['write', 'exec']; an unknown kind is an error that lists the known ones. */
export function parseAllowList(text: string): ToolKind[] {
  const kinds = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const unknown = kinds.filter((kind) => !(TOOL_KINDS as readonly string[]).includes(kind));
  if (unknown.length > 0)
    throw new Error(
      `Unknown tool kind in --allow: ${unknown.join(', ')}. Use a comma-separated list of ${TOOL_KINDS.join(', ')}.`,
    );
  return kinds as ToolKind[];
}

const VERB: Record<ToolKind, string> = {
  read: 'read files',
  write: 'change files',
  exec: 'run commands',
  ssh: 'run commands over SSH',
  code: 'run code',
  net: 'fetch web pages',
};

export function headlessRefusal(question: ApprovalQuestion, rules: Pick<PermissionGate, 'rule'>): string {
  const kind = question.request.scope as ToolKind;
  const cause = question.cause;
  if (cause?.kind === 'protected') {
    return (
      `Refused: ${question.name} would change ${cause.path}, a protected path (${cause.why}), and nobody can answer a question in a headless run. ` +
      `Only --permission-mode bypass writes protected paths without asking.`
    );
  }
  if (cause?.kind === 'sandbox') {
    return `Refused: ${question.name} asked to run outside the sandbox (${question.request.title}), and nobody can answer a question in a headless run. Allow that command with --allow-rule 'exec(COMMAND)', or run with --permission-mode auto.`;
  }
  if (cause?.kind === 'rule') {
    return `Refused: ${question.name} (${question.request.title}) matches the ask rule ${cause.rule}, and nobody can answer a question in a headless run. Drop that --ask-rule or add an --allow-rule for it.`;
  }
  if (!(TOOL_KINDS as readonly string[]).includes(kind) || rules.rule(kind) === 'allow') {
    // A question a tool asks mid-run (an unknown host key, say) cannot be allowed by a flag.
    return `Refused: ${question.name} asked "${question.request.title}", and nobody can answer a question in a headless run.`;
  }
  return (
    `Denied: ${question.name} needs permission to ${VERB[kind]} (${question.request.title}), and nobody can answer a question in a headless run. ` +
    `Allow it with --allow ${kind} (--allow write,exec,ssh allows all three)${kind === 'net' ? ", or one host with --allow-rule 'net(HOST)'" : ''}, or run with --permission-mode auto.`
  );
}

export interface HeadlessGateOptions {
  mode?: PermissionMode;
  /** Kinds allowed on top of the mode. */
  allow?: readonly ToolKind[];
  /** Allow / ask / deny rules with patterns (--allow-rule, --ask-rule, --deny-rule). */
  rules?: PermissionRuleLists;
  /** The sandbox's rules, for the `sandbox` mode (settings.json's `sandbox`). */
  sandbox?: SandboxRules;
}

/** A gate for runs where nobody can answer: `ask` becomes a refusal that names the flag to pass. */
export function headlessGate(options: HeadlessGateOptions = {}): PermissionGate {
  const mode = options.mode ?? 'ask';
  const rules = rulesForMode(mode);
  for (const kind of options.allow ?? []) rules[kind] = 'allow';
  let gate: PermissionGate | null = null;
  const approver: Approver = new RefuseApprover((question) =>
    headlessRefusal(question, gate ?? { rule: (kind) => rules[kind] }),
  );
  gate = new PermissionGate(rules, approver, {
    ...(options.rules ? { rules: options.rules } : {}),
    bypassProtected: bypassesProtectedPaths(mode),
  });
  gate.setSandbox(sandboxOf(mode, options.sandbox));
  gate.setMode(mode);
  return gate;
}

/** Kinds the gate will never let through in this session: the system prompt mentions them. */
export function deniedKinds(gate: Pick<PermissionGate, 'rule'>): ToolKind[] {
  return TOOL_KINDS.filter((kind) => gate.rule(kind) === 'deny');
}
