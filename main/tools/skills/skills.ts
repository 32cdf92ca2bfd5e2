import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../../protocol/errors.ts';

// Skills: a folder holding SKILL.md — front matter with `name` and `description` (and optional
// `allowed-tools`), then the instructions — and any files the instructions refer to. The format
// Claude Code, Codex, Copilot and Goose read. Found in the workspace's `.agents/skills/`,
// `.claude/skills/` and `.aethercodex/skills/`, and the person's `skills/` in the app's home. The
// model's context carries only each one's name and description; the `skill` tool loads the rest.
// A skill is text, not code: reading one asks nothing, and what it tells the model to run still
// goes through the gate.

/** Where skills are looked for in the workspace, in order: a later folder's skill of the same name wins. */
export const WORKSPACE_SKILL_FOLDERS = ['.agents/skills', '.claude/skills', '.aethercodex/skills'] as const;
export const SKILL_FILE = 'SKILL.md';
/** A SKILL.md bigger than this is refused: the model loads it whole. */
export const MAX_SKILL_BYTES = 256 * 1024;
const MAX_DESCRIPTION = 1024;
const NAME = /^[a-z0-9][a-z0-9_.:-]{0,63}$/i;

export interface Skill {
  name: string;
  description: string;
  /** The tools the skill says it uses (`allowed-tools`), as written; informative. */
  allowedTools?: string[];
  /** The skill's folder, absolute. */
  folder: string;
  origin: 'workspace' | 'user';
}

export interface SkillSet {
  skills: Skill[];
  /** SKILL.md files left out, each naming its file (and line) and why. */
  problems: string[];
}

/** The skills of a workspace and of the person (`<home>/skills`); a workspace skill wins a name both have. */
export async function discoverSkills(where: { home?: string; workspace: string }): Promise<SkillSet> {
  const problems: string[] = [];
  const found = new Map<string, Skill>();
  const roots = [
    ...(where.home ? [{ root: path.join(where.home, 'skills'), origin: 'user' as const }] : []),
    ...WORKSPACE_SKILL_FOLDERS.map((folder) => ({
      root: path.join(where.workspace, folder),
      origin: 'workspace' as const,
    })),
  ];
  for (const { root, origin } of roots) {
    for (const skill of await skillsIn(root, origin, problems)) found.set(skill.name, skill);
  }
  const skills = [...found.values()].sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return { skills, problems };
}

async function skillsIn(root: string, origin: Skill['origin'], problems: string[]): Promise<Skill[]> {
  let entries: string[];
  try {
    entries = (await readdir(root)).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      problems.push(`Could not list the skills in ${root}: ${errorMessage(error)}`);
    return [];
  }
  const skills: Skill[] = [];
  for (const entry of entries) {
    const folder = path.join(root, entry);
    const file = path.join(folder, SKILL_FILE);
    let text: string;
    try {
      const info = await stat(file);
      if (info.size > MAX_SKILL_BYTES) {
        problems.push(`${file} is ${info.size} bytes; a SKILL.md may hold at most ${MAX_SKILL_BYTES}. It is left out.`);
        continue;
      }
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') problems.push(`Could not read ${file}: ${errorMessage(error)}`);
      continue;
    }
    const parsed = parseSkillFile(text);
    if ('problem' in parsed) {
      problems.push(`${file}${parsed.line ? `:${parsed.line}` : ''}: ${parsed.problem} The skill is left out.`);
      continue;
    }
    skills.push({ ...parsed.fields, folder, origin });
  }
  return skills;
}

type SkillFields = Pick<Skill, 'name' | 'description' | 'allowedTools'>;

/** SKILL.md's front matter; or what is wrong with it and on which line. */
export function parseSkillFile(
  text: string,
): { fields: SkillFields; body: string } | { problem: string; line?: number } {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n/g, '\n')
    .split('\n');
  if (lines[0]?.trim() !== '---')
    return {
      problem:
        'it has no front matter: it must start with a line "---", then "name: …" and "description: …", then "---".',
      line: 1,
    };
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end < 0) return { problem: 'its front matter is never closed by a line "---".', line: 1 };
  const fields = new Map<string, string>();
  for (let index = 1; index < end; index += 1) {
    const line = lines[index] ?? '';
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const pair = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!pair)
      return {
        problem: `"${line.trim().slice(0, 60)}" is not a "key: value" line of the front matter.`,
        line: index + 1,
      };
    const key = pair[1]!.toLowerCase();
    let value = pair[2]!.trim();
    // A block scalar (`>` folded, `|` literal) or a value continued on indented lines.
    const block = /^[>|][+-]?$/.test(value) ? value[0] : value === '' ? '>' : null;
    if (block !== null) {
      const continued: string[] = [];
      while (index + 1 < end && (/^\s+\S/.test(lines[index + 1] ?? '') || (lines[index + 1] ?? '').trim() === '')) {
        index += 1;
        continued.push((lines[index] ?? '').trim());
      }
      value = block === '|' ? continued.join('\n').trim() : continued.filter(Boolean).join(' ');
    } else if (/^\[.*\]$/.test(value)) {
      value = value.slice(1, -1);
    } else value = unquote(value);
    fields.set(key, value);
  }
  const name = fields.get('name') ?? '';
  const description = fields.get('description') ?? '';
  if (!NAME.test(name))
    return {
      problem: `its name ${JSON.stringify(name)} is not a skill name (letters, digits, - _ . :, at most 64).`,
      line: 2,
    };
  if (description === '') return { problem: 'it has no description: the model picks a skill by it.', line: 2 };
  const tools = fields.get('allowed-tools');
  const allowedTools = tools
    ? tools
        .split(/[,\s]+/)
        .map((tool) => unquote(tool))
        .filter(Boolean)
    : [];
  return {
    fields: {
      name,
      description: description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION - 1)}…` : description,
      ...(allowedTools.length > 0 ? { allowedTools } : {}),
    },
    body: lines
      .slice(end + 1)
      .join('\n')
      .trim(),
  };
}

function unquote(value: string): string {
  if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0])
    return value.slice(1, -1);
  return value;
}
