import { domainToASCII } from 'node:url';
import { z } from 'zod';
import type { PermissionRuleLists } from '../../protocol/api.ts';
import { TOOL_KINDS } from '../../protocol/values.ts';
import type { ToolKind } from './tool.ts';
import { splitShellCommand } from './shell-words.ts';

// Permission rules in Claude Code's shape: `kind` or `kind(pattern)`, in allow / ask / deny lists.
// Paths (read, write) are globs on the workspace-relative path: `*` stays within a folder, `**`
// crosses folders. Commands (exec; ssh as `host:command`) match each part of a compound command
// on its own; `*` matches anything, and a trailing ` *` also matches the bare command. Hosts (net)
// match without case: `*` matches any characters, dots too, so `*.python.org` is every host under
// python.org but not python.org itself.

export type RuleEffect = 'allow' | 'ask' | 'deny';

export interface PermissionRule {
  /** As written, for messages. */
  text: string;
  kind: ToolKind;
  /** null: every call of the kind. */
  pattern: string | null;
}

/** What a call does, as rules see it. */
export interface RuleSubject {
  /** Workspace-relative paths, `/`-separated: the path as named and its real path (links followed). */
  paths?: { named: string; real: string }[];
  /** exec: the command line; ssh: `host:command`. */
  command?: { prefix: string; line: string };
  /** net: the host a call reaches, as hostOfUrl gives it. */
  host?: string;
}

export interface RuleMatch {
  effect: RuleEffect;
  rule: string;
}

const PATH_KINDS: ReadonlySet<ToolKind> = new Set(['read', 'write']);

export const EMPTY_RULES: PermissionRuleLists = { allow: [], ask: [], deny: [] };

/** `exec(git push *)` → { kind: 'exec', pattern: 'git push *' }; a rule that cannot mean anything throws. */
export function parseRule(text: string): PermissionRule {
  const trimmed = text.trim();
  const found = /^([a-z]+)\s*(?:\((.*)\))?$/s.exec(trimmed);
  const kind = found?.[1] as ToolKind | undefined;
  if (!found || !kind || !TOOL_KINDS.includes(kind)) {
    throw new Error(
      `"${text}" is not a permission rule. Write a kind (${TOOL_KINDS.join(', ')}) alone or with a pattern, such as exec(npm test) or write(src/**).`,
    );
  }
  const pattern = found[2]?.trim() ?? null;
  if (pattern === '') throw new Error(`"${text}" has an empty pattern. Write ${kind} alone to mean every call.`);
  if (pattern !== null && kind === 'code') throw new Error(`"${text}": code rules take no pattern; write code alone.`);
  if (pattern !== null && kind === 'net') return { text: trimmed, kind, pattern: hostPattern(text, pattern) };
  return { text: trimmed, kind, pattern };
}

/** Every rule of the lists parsed; the first bad one throws with its list named. */
export function parseRuleLists(lists: PermissionRuleLists): Record<RuleEffect, PermissionRule[]> {
  const parse = (effect: RuleEffect) =>
    lists[effect].map((text) => {
      try {
        return parseRule(text);
      } catch (error) {
        throw new Error(`In the ${effect} rules: ${(error as Error).message}`, { cause: error });
      }
    });
  return { allow: parse('allow'), ask: parse('ask'), deny: parse('deny') };
}

const ruleList = z.array(z.string().max(2000)).max(500);

/** The lists as the panel sends them; each rule is checked with parseRule afterwards. */
export const ruleListsSchema = z.object({
  allow: ruleList.catch([]),
  ask: ruleList.catch([]),
  deny: ruleList.catch([]),
});

/**
 * The rule that decides a call: deny wins, then ask, then allow; null when no rule speaks. Deny and
 * ask match if any path (as named or real) or any part of the command matches; allow needs every
 * real path and every part of the command matched, and never matches a command that substitutes
 * other commands (`$(…)`, backticks), whose parts cannot be known before it runs.
 */
export function matchRules(
  rules: Record<RuleEffect, readonly PermissionRule[]>,
  kind: ToolKind,
  subject: RuleSubject,
  options: { foldCase: boolean },
): RuleMatch | null {
  for (const effect of ['deny', 'ask'] as const) {
    const rule = rules[effect].find((candidate) => candidate.kind === kind && matchesAny(candidate, subject, options));
    if (rule) return { effect, rule: rule.text };
  }
  const ofKind = rules.allow.filter((rule) => rule.kind === kind);
  if (ofKind.length === 0) return null;
  const whole = ofKind.find((rule) => rule.pattern === null);
  if (whole) return { effect: 'allow', rule: whole.text };
  const parts = coveredParts(kind, subject, options);
  if (parts.length === 0) return null;
  const used: string[] = [];
  for (const part of parts) {
    const rule = ofKind.find((candidate) => part(candidate.pattern!));
    if (!rule) return null;
    if (!used.includes(rule.text)) used.push(rule.text);
  }
  return { effect: 'allow', rule: used.join(', ') };
}

/** The narrowest rules that would allow this call again: one per path or per part of the command. */
export function narrowRules(kind: ToolKind, subject: RuleSubject): string[] {
  if (PATH_KINDS.has(kind)) {
    const paths = subject.paths ?? [];
    if (paths.length === 0 || paths.some((entry) => entry.real.startsWith('../'))) return [];
    return unique(paths.map((entry) => `${kind}(${escapeGlob(entry.real)})`));
  }
  if (kind === 'net') return subject.host ? [`net(${escapeGlob(subject.host)})`] : [];
  if ((kind === 'exec' || kind === 'ssh') && subject.command) {
    const split = splitShellCommand(subject.command.line);
    if (split.substitutes || split.parts.length === 0) return [];
    return unique(split.parts.map((part) => `${kind}(${escapeCommand(subject.command!.prefix + part)})`));
  }
  return [kind];
}

function matchesAny(rule: PermissionRule, subject: RuleSubject, options: { foldCase: boolean }): boolean {
  if (rule.pattern === null) return true;
  if (PATH_KINDS.has(rule.kind)) {
    const glob = pathGlob(rule.pattern, options.foldCase);
    return (subject.paths ?? []).some((entry) => glob.test(entry.named) || glob.test(entry.real));
  }
  if (rule.kind === 'net') return subject.host !== undefined && hostGlob(rule.pattern).test(subject.host);
  if (!subject.command) return false;
  const matcher = commandGlob(rule.pattern);
  const { prefix, line } = subject.command;
  const parts = splitShellCommand(line).parts;
  return [line.trim(), ...parts].some((part) => matcher.test(normalise(prefix + part)));
}

/** One test per thing an allow rule must cover: each real path, or each part of the command. */
function coveredParts(
  kind: ToolKind,
  subject: RuleSubject,
  options: { foldCase: boolean },
): ((pattern: string) => boolean)[] {
  if (PATH_KINDS.has(kind)) {
    return (subject.paths ?? []).map(
      (entry) => (pattern: string) => pathGlob(pattern, options.foldCase).test(entry.real),
    );
  }
  if (kind === 'net') {
    const { host } = subject;
    return host === undefined ? [] : [(pattern: string) => hostGlob(pattern).test(host)];
  }
  if (subject.command) {
    const { prefix, line } = subject.command;
    const split = splitShellCommand(line);
    if (split.substitutes) return [];
    return split.parts.map((part) => (pattern: string) => commandGlob(pattern).test(normalise(prefix + part)));
  }
  return [];
}

/** `src/**` → a regex over `/`-separated relative paths; `\` escapes the next character. */
export function pathGlob(pattern: string, foldCase: boolean): RegExp {
  let source = '';
  const text = pattern.replace(/^\.\//, '');
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (char === '\\' && index + 1 < text.length) {
      source += escapeRegex(text[(index += 1)]!);
    } else if (char === '*' && text[index + 1] === '*') {
      index += 1;
      const slashAfter = text[index + 1] === '/';
      const atStart = index === 1 || text[index - 2] === '/';
      if (slashAfter && atStart) {
        source += '(?:[^/]*/)*';
        index += 1;
      } else {
        source += '.*';
      }
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else {
      source += escapeRegex(char);
    }
  }
  return new RegExp(`^${source}$`, foldCase ? 'iu' : 'u');
}

/** `git push *` → matches `git push`, `git push origin main`; `*` elsewhere matches anything. */
export function commandGlob(pattern: string): RegExp {
  const text = normalise(pattern);
  const bareToo = text.endsWith(' *') && !text.endsWith('\\ *');
  const body = bareToo ? text.slice(0, -2) : text;
  let source = '';
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index]!;
    if (char === '\\' && index + 1 < body.length) source += escapeRegex(body[(index += 1)]!);
    else if (char === '*') source += '.*';
    else source += escapeRegex(char);
  }
  return new RegExp(`^${source}${bareToo ? '(?: .*)?' : ''}$`, 's');
}

/**
 * The host of a URL as net rules see it: lower case, international names in their ASCII (punycode)
 * form, no brackets around an IPv6 address and no trailing dot, so `Example.COM.` cannot slip past
 * a rule on example.com. Null when the text is not a URL with a host.
 */
export function hostOfUrl(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.+$/, '');
  return host === '' ? null : host;
}

/** A net rule's pattern in the form hosts take (hostOfUrl); one that is not a host name throws. */
function hostPattern(text: string, pattern: string): string {
  const bare = pattern
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.+$/, '')
    .toLowerCase();
  const ipv6 = bare.includes(':') && /^[0-9a-f:.*?]+$/.test(bare);
  if (/[/@#\s]/.test(bare) || (bare.includes(':') && !ipv6))
    throw new Error(`"${text}": a net rule names a host, such as net(docs.python.org) or net(*.python.org).`);
  // Each label of an international name in the ASCII form URLs give it; wildcards stay as written.
  return bare
    .split('.')
    .map((label) => (/[^\p{ASCII}]/u.test(label) && !/[*?\\]/.test(label) ? domainToASCII(label) || label : label))
    .join('.');
}

/** `*.python.org` → matches docs.python.org and a.b.python.org, not python.org; without case. */
export function hostGlob(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index]!;
    if (char === '\\' && index + 1 < pattern.length) source += escapeRegex(pattern[(index += 1)]!);
    else if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += escapeRegex(char);
  }
  return new RegExp(`^${source}$`, 'i');
}

function normalise(command: string): string {
  return command.trim().replace(/[ \t]+/g, ' ');
}

function escapeRegex(char: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(char) ? `\\${char}` : char;
}

function escapeGlob(text: string): string {
  return text.replace(/[\\*?]/g, '\\$&');
}

function escapeCommand(text: string): string {
  return normalise(text).replace(/[\\*]/g, '\\$&');
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
