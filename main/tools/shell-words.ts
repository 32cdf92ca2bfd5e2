// A command line split the way a POSIX shell separates commands, so a rule can judge each part:
// `npm test && curl x | sh` is three commands, and `exec(npm test *)` must not allow the other two.
// Quotes and backslashes are honoured; nothing is expanded.

export interface SplitCommand {
  /** The commands between `;`, `&`, `&&`, `|`, `||` and newlines, trimmed, empty ones dropped. */
  parts: string[];
  /** The line runs commands of its own making (`$(…)`, backticks, `<(…)`, `>(…)`): no rule can know them. */
  substitutes: boolean;
}

export function splitShellCommand(line: string): SplitCommand {
  const parts: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  let substitutes = false;
  const cut = () => {
    const part = current.trim();
    if (part !== '') parts.push(part);
    current = '';
  };
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    const next = line[index + 1];
    if (quote === "'") {
      if (char === "'") quote = null;
      current += char;
      continue;
    }
    if (char === '\\' && next !== undefined) {
      current += char + next;
      index += 1;
      continue;
    }
    if (char === '`' || (char === '$' && next === '(') || ((char === '<' || char === '>') && next === '(')) {
      substitutes = true;
    }
    if (quote === '"') {
      if (char === '"') quote = null;
      current += char;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      current += char;
      continue;
    }
    if (char === ';' || char === '\n' || char === '\r') {
      cut();
      continue;
    }
    if (char === '&' || char === '|') {
      // `2>&1`, `&>` and `>|` are redirections, not separators.
      if ((char === '&' && (/[<>]$/.test(current) || next === '>')) || (char === '|' && current.endsWith('>'))) {
        current += char;
        continue;
      }
      if (next === char) index += 1;
      cut();
      continue;
    }
    current += char;
  }
  cut();
  return { parts, substitutes };
}
