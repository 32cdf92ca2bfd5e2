import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError, type AnyTool } from '../tool.ts';
import { parseSkillFile, SKILL_FILE, type Skill } from './skills.ts';

// `skill {name}`: loads a skill's instructions (the body of its SKILL.md, read again at the call)
// and names the other files of its folder, which the model reads with read_file as it needs. The
// tool's description lists every skill by name and description: all the model's context carries
// of them until one is loaded.

const MAX_LISTED_FILES = 200;
const MAX_DEPTH = 3;

const skillArgsSchema = z.object({ name: z.string().min(1).max(64) }).strict();
type SkillArgs = z.infer<typeof skillArgsSchema>;

interface LoadedSkill {
  name: string;
  folder: string;
  body: string;
  files: string[];
  /** More files than were listed. */
  more: boolean;
}

export function skillTool(skills: readonly Skill[], workspace: string): AnyTool {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  const listed = skills.map((skill) => `- ${skill.name}: ${skill.description}`).join('\n');
  return defineTool<SkillArgs, LoadedSkill>({
    name: 'skill',
    model: {
      description:
        'Load a skill: instructions for a kind of task, kept by the person or this repository. When a task matches a ' +
        "skill's description, load it first and follow it; it names the files of its folder, which you read as you " +
        `need. Commands it tells you to run go through the usual approval.\n\nSkills:\n${listed}`,
      schema: skillArgsSchema,
      render: (loaded) => renderSkill(loaded, workspace),
    },
    gate: { kind: 'read' },
    card: {
      describe: (args) => ({ title: `Load the skill ${args.name}`, subtitle: args.name }),
    },
    async execute(args) {
      const skill = byName.get(args.name);
      if (!skill)
        throw new ToolError(
          `There is no skill named "${args.name}". Skills: ${[...byName.keys()].join(', ') || 'none'}.`,
        );
      const file = path.join(skill.folder, SKILL_FILE);
      const parsed = parseSkillFile(await readFile(file, 'utf8'));
      if ('problem' in parsed) throw new ToolError(`${file}${parsed.line ? `:${parsed.line}` : ''}: ${parsed.problem}`);
      const files: string[] = [];
      const more = await listFiles(skill.folder, '', files, 0);
      return { name: skill.name, folder: skill.folder, body: parsed.body, files, more };
    },
  });
}

function renderSkill(loaded: LoadedSkill, workspace: string): string {
  const relative = path.relative(workspace, loaded.folder);
  const where = relative.startsWith('..') || path.isAbsolute(relative) ? loaded.folder : relative;
  const files =
    loaded.files.length === 0
      ? 'Its folder holds no other file.'
      : `Other files in its folder ${where}/ (read them with read_file as you need them):\n${loaded.files.map((file) => `- ${path.join(where, file)}`).join('\n')}${loaded.more ? `\n[and more: only the first ${MAX_LISTED_FILES} are listed]` : ''}`;
  return `<skill name="${loaded.name}" folder="${where}">\n${loaded.body}\n</skill>\n\n${files}`;
}

/** The folder's files below `prefix`, SKILL.md aside; true when there were more than listed. */
async function listFiles(folder: string, prefix: string, into: string[], depth: number): Promise<boolean> {
  const entries = await readdir(path.join(folder, prefix), { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name, 'en'))) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (relative === SKILL_FILE || entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) {
      if (depth + 1 < MAX_DEPTH && (await listFiles(folder, relative, into, depth + 1))) return true;
      continue;
    }
    if (into.length >= MAX_LISTED_FILES) return true;
    into.push(relative);
  }
  return false;
}
