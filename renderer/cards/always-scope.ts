// What an "Always for this session" answer covers, in words: the gate offers narrow rules
// (`write(src/a.ts)`, `exec(npm test)`), and a person should not have to read rule syntax to know
// what they are allowing.

const KIND_RULE = /^(\w+)(?:\((.*)\))?$/s;

/** One rule in words: `write(src/a.ts)` → "writes to src/a.ts in this workspace". */
export function describeAlwaysRule(rule: string): string {
  const match = KIND_RULE.exec(rule.trim());
  if (!match) return rule;
  const kind = match[1];
  const pattern = match[2]?.trim() || null;
  switch (kind) {
    case 'write':
      return pattern ? `writes to ${pattern} in this workspace` : 'all file writes in this workspace';
    case 'read':
      return pattern ? `reads of ${pattern} in this workspace` : 'all file reads in this workspace';
    case 'exec':
      return pattern ? `the command ${pattern} in this workspace` : 'every command in this workspace';
    case 'ssh':
      return pattern ? `the remote command ${pattern}` : 'every remote command';
    case 'code':
      return pattern ? `Code Mode programs matching ${pattern}` : 'every Code Mode program';
    case 'net':
      return pattern ? `web pages from ${pattern}` : 'web pages from every host';
    default:
      return rule;
  }
}

/** Several rules in words, joined as a sentence part ("a, b and c"). */
export function describeAlwaysRules(rules: readonly string[]): string {
  const parts = rules.map(describeAlwaysRule);
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1] ?? ''}`;
}
