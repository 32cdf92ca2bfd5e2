import type { UserCommand, UserCommandList } from '../../protocol/composer.ts';
import { discoverSkills } from '../tools/skills/skills.ts';

// What the hosts reach skills through: each skill as a slash command the composer offers
// (`/release 2.4`), which asks the model to load it with the `skill` tool and follow it.

export { discoverSkills } from '../tools/skills/skills.ts';

/** The person's commands with every skill added as one (a command of the same name wins). */
export async function withSkillCommands(
  commands: UserCommandList,
  where: { home?: string; workspace: string },
): Promise<UserCommandList> {
  const found = await discoverSkills(where);
  const taken = new Set(commands.commands.map((command) => command.name));
  const skills: UserCommand[] = found.skills
    .filter((skill) => !taken.has(skill.name))
    .map((skill) => ({
      name: skill.name,
      description: skill.description,
      source: 'skill',
      body: `Use the skill "${skill.name}": load it with the skill tool, then follow it.`,
      argument_hint: '[what for]',
    }));
  return { commands: [...commands.commands, ...skills], problems: [...commands.problems, ...found.problems] };
}
