import type { PermissionMode, PermissionRuleLists } from '../../protocol/api.ts';
import { TOOL_KINDS } from '../../protocol/values.ts';
import type { GateRules, PermissionGate } from '../tools/permission-gate.ts';
import { EMPTY_RULES } from '../tools/permission-rules.ts';
import type { ToolKind } from '../tools/tool.ts';
import type { SandboxRules } from '../../protocol/sandbox.ts';
import { bypassesProtectedPaths, rulesForMode, sandboxOf } from './permissions.ts';

// What a session's permission gate follows, as a host states it: the mode, the rule lists with
// patterns, the kinds allowed on top of the mode. openAgentSession builds the gate from it; the
// panel applies it again to the open session after each change of the settings. Also the rule
// lists' syntax, which the hosts check at their edges (settings.json, the panel, --allow-rule).

export { parseRule, parseRuleLists, ruleListsSchema, type RuleEffect } from '../tools/permission-rules.ts';

export interface SessionPermissions {
  mode: PermissionMode;
  /** Allow / ask / deny rules with patterns (settings.json's permission_rules, --allow-rule …). */
  rules?: PermissionRuleLists;
  /** Kinds allowed on top of the mode (`aether run --allow write,exec`). */
  allow?: readonly ToolKind[];
  /** The sandbox's rules, for the `sandbox` mode (settings.json's `sandbox`). */
  sandbox?: SandboxRules;
}

/** The gate's rule per kind: the mode's, with the kinds allowed on top of it. */
export function kindRules(permissions: SessionPermissions): GateRules {
  const rules = rulesForMode(permissions.mode);
  for (const kind of permissions.allow ?? []) rules[kind] = 'allow';
  return rules;
}

/** The rule per kind, the rule lists and the protected-path bypass, as `permissions` say now. */
export function applyPermissions(gate: PermissionGate, permissions: SessionPermissions): void {
  const rules = kindRules(permissions);
  for (const kind of TOOL_KINDS) gate.setRule(kind, rules[kind]);
  gate.setRuleLists(permissions.rules ?? EMPTY_RULES);
  gate.setBypassProtected(bypassesProtectedPaths(permissions.mode));
  gate.setSandbox(sandboxOf(permissions.mode, permissions.sandbox));
  gate.setMode(permissions.mode);
}
