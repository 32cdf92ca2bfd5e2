import { createHash } from 'node:crypto';
import path from 'node:path';
import { REASONING_EFFORTS } from '../../../protocol/values.ts';
import type { AgentDefinition } from '../../../protocol/agents.ts';

// One agent file: Markdown with front matter between `---` lines, the body being the agent's
// instructions. The front matter is the small part of YAML such files use: `key: value` (quoted or
// not), a list as `[a, b]`, as `- a` lines or as a comma-separated string, and `|` / `>` blocks.
// Claude Code's files (.claude/agents) are read with their tool names mapped to ours; their model
// aliases (sonnet, haiku, inherit) mean the parent's model here.

export type AgentOrigin = AgentDefinition['origin'];

/** A file that could not be read as an agent: which line, and what is wrong there. */
export interface AgentFileProblem {
  file: string;
  line: number;
  message: string;
}

export type ParsedAgentFile = { ok: true; agent: AgentDefinition } | { ok: false; problem: AgentFileProblem };

const NAME = /^[a-z0-9][a-z0-9_-]*$/i;

/** Claude Code's tool names, as this app calls the same tools. */
const CLAUDE_TOOLS: Record<string, string> = {
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'patch_file',
  MultiEdit: 'patch_file',
  Grep: 'search_files',
  Glob: 'list_dir',
  LS: 'list_dir',
  Bash: 'exec',
  WebFetch: 'web_fetch',
  Task: 'agent',
};

type Value = string | string[];

class FrontMatterError extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(message);
    this.line = line;
  }
}

export function parseAgentFile(
  file: string,
  text: string,
  origin: Exclude<AgentOrigin, 'builtin'>,
  claude = false,
): ParsedAgentFile {
  const problem = (line: number, message: string): ParsedAgentFile => ({ ok: false, problem: { file, line, message } });
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---')
    return problem(
      1,
      'An agent file starts with front matter: a line "---", the fields (name, description, …), and "---" again.',
    );
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end < 0) return problem(lines.length, 'The front matter has no closing "---" line.');
  let fields: Map<string, { value: Value; line: number }>;
  try {
    fields = frontMatter(lines.slice(1, end), 2);
  } catch (error) {
    if (error instanceof FrontMatterError) return problem(error.line, error.message);
    throw error;
  }
  const text_ = (key: string): { value: string; line: number } | undefined => {
    const field = fields.get(key);
    if (!field) return undefined;
    if (Array.isArray(field.value)) throw new FrontMatterError(field.line, `${key} is one value, not a list.`);
    return { value: field.value, line: field.line };
  };
  try {
    const fallbackName = path.basename(file).replace(/\.md$/i, '');
    const name = text_('name')?.value || fallbackName;
    if (!NAME.test(name))
      return problem(fields.get('name')?.line ?? 2, `The name "${name}" may hold only letters, digits, - and _.`);
    const description = text_('description');
    if (!description?.value.trim())
      return problem(2, 'The front matter needs a description: the model reads it to choose this agent.');
    const agent: AgentDefinition = {
      name,
      description: description.value.trim(),
      instructions: lines
        .slice(end + 1)
        .join('\n')
        .trim(),
      origin,
      file,
      fingerprint: createHash('sha256').update(text).digest('hex'),
    };
    const model = text_('model');
    if (model && model.value !== '' && model.value !== 'inherit') {
      // A Claude alias (sonnet, haiku, opus) names no model this app knows: the parent's is used.
      if (!claude || model.value.includes(':')) agent.model = model.value;
    }
    const effort = text_('effort');
    if (effort) {
      if (!(REASONING_EFFORTS as readonly string[]).includes(effort.value))
        return problem(effort.line, `effort is one of ${REASONING_EFFORTS.join(', ')}, not "${effort.value}".`);
      agent.effort = effort.value as AgentDefinition['effort'];
    }
    const tools = fields.get('tools') ?? fields.get('allowed-tools') ?? fields.get('allowed_tools');
    if (tools) {
      const names = (Array.isArray(tools.value) ? tools.value : tools.value.split(','))
        .map((entry) => entry.trim())
        .filter(Boolean);
      agent.tools = claude ? [...new Set(names.map((entry) => CLAUDE_TOOLS[entry] ?? entry))] : names;
    }
    const mode = text_('permissionMode') ?? text_('permission_mode') ?? text_('permission-mode');
    if (mode) {
      if (mode.value === 'read-only' || mode.value === 'plan') agent.permissionMode = 'read-only';
      else if (['inherit', 'default', 'ask', ''].includes(mode.value)) agent.permissionMode = 'inherit';
      else
        return problem(
          mode.line,
          `permission mode "${mode.value}" is not one an agent can take: read-only, or inherit (the parent's).`,
        );
    }
    const nesting = text_('nesting');
    if (nesting) {
      if (nesting.value !== 'true' && nesting.value !== 'false')
        return problem(nesting.line, `nesting is true or false, not "${nesting.value}".`);
      agent.nesting = nesting.value === 'true';
    }
    return { ok: true, agent };
  } catch (error) {
    if (error instanceof FrontMatterError) return problem(error.line, error.message);
    throw error;
  }
}

/** The fields of the front matter; `first` is the file's line number of its first line. */
function frontMatter(lines: readonly string[], first: number): Map<string, { value: Value; line: number }> {
  const fields = new Map<string, { value: Value; line: number }>();
  for (let index = 0; index < lines.length; index += 1) {
    const raw = lines[index]!;
    const lineNo = first + index;
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) continue;
    const match = /^([A-Za-z_][\w-]*)\s*:(.*)$/.exec(raw);
    if (!match) throw new FrontMatterError(lineNo, `"${raw.trim()}" is not a field: write it as key: value.`);
    const key = match[1]!;
    const rest = match[2]!.trim();
    if (fields.has(key)) throw new FrontMatterError(lineNo, `${key} is given twice.`);
    if (rest === '|' || rest === '>' || rest === '|-' || rest === '>-' || rest === '') {
      // A block: the indented lines that follow (a list of `- item`, or text).
      const block: string[] = [];
      while (index + 1 < lines.length && (/^\s+\S/.test(lines[index + 1]!) || lines[index + 1]!.trim() === '')) {
        index += 1;
        block.push(lines[index]!);
      }
      const items = block.filter((line) => line.trim() !== '');
      if (rest === '' && items.length > 0 && items.every((line) => line.trim().startsWith('- ')))
        fields.set(key, { value: items.map((line) => unquote(line.trim().slice(2).trim(), lineNo)), line: lineNo });
      else {
        const joined = rest.startsWith('>') ? items.map((line) => line.trim()).join(' ') : dedent(block).join('\n');
        fields.set(key, { value: joined.trim(), line: lineNo });
      }
      continue;
    }
    if (rest.startsWith('[')) {
      if (!rest.endsWith(']')) throw new FrontMatterError(lineNo, `The list of ${key} has no closing "]".`);
      const inner = rest.slice(1, -1).trim();
      const items = inner === '' ? [] : inner.split(',').map((item) => unquote(item.trim(), lineNo));
      fields.set(key, { value: items, line: lineNo });
      continue;
    }
    fields.set(key, { value: unquote(rest, lineNo), line: lineNo });
  }
  return fields;
}

function unquote(value: string, line: number): string {
  const quote = value[0];
  if (quote !== '"' && quote !== "'") return value.replace(/\s+#.*$/, '');
  if (value.length < 2 || value.at(-1) !== quote)
    throw new FrontMatterError(line, `The value ${value} has no closing ${quote}.`);
  const inner = value.slice(1, -1);
  if (quote === "'") return inner.replace(/''/g, "'");
  try {
    return JSON.parse(value) as string;
  } catch {
    throw new FrontMatterError(line, `The value ${value} is not a valid double-quoted string.`);
  }
}

function dedent(lines: readonly string[]): string[] {
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^\s*/.exec(line)![0].length);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(cut));
}
