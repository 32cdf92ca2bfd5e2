import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { withSkillCommands } from '../../main/agent/skills.ts';
import { hookRuns, HookRig } from '../hook-rig.ts';

// A repository set up for Claude Code — hooks in .claude/settings.json, a skill in
// .claude/skills/x/SKILL.md — works unchanged: its hooks run once approved, its skill is offered by
// name and description, loads with the `skill` tool, and its files read with read_file.

const rig = new HookRig();
beforeEach(() => rig.setUp());
afterEach(() => rig.tearDown());

it('runs the hooks of .claude/settings.json and offers and loads the skill of .claude/skills/x', async () => {
  const { workspace, home } = rig;
  await mkdir(path.join(workspace, '.claude', 'skills', 'x', 'scripts'), { recursive: true });
  await writeFile(
    path.join(workspace, '.claude', 'skills', 'x', 'SKILL.md'),
    '---\nname: x\ndescription: Ship a release of this project\n---\n# Release\nRun scripts/ship.sh, then say "shipped".\n',
  );
  await writeFile(path.join(workspace, '.claude', 'skills', 'x', 'scripts', 'ship.sh'), 'echo shipping\n');
  // Claude Code's own tool names in the matcher, and its input fields read with jq-less node.
  const logged = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const e=JSON.parse(s);require("fs").appendFileSync("hook.log",e.hook_event_name+" "+e.tool_name+" "+(e.tool_input.file_path??"")+"\\n")})'`;
  await rig.settings(path.join(workspace, '.claude', 'settings.json'), {
    PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: logged }] }],
  });
  await mkdir(path.join(home, 'skills', 'mine'), { recursive: true });
  await writeFile(
    path.join(home, 'skills', 'mine', 'SKILL.md'),
    "---\nname: mine\ndescription: The person's own\n---\nMine.\n",
  );
  await writeFile(path.join(home, 'skills', 'mine', 'notes.md'), 'my notes\n');

  const { session, hooks, skills, recorder } = await rig.open({
    steps: [
      { tool_calls: [{ id: 'call_s', name: 'skill', args: { name: 'x' } }] },
      { tool_calls: [{ id: 'call_r', name: 'read_file', args: { path: '.claude/skills/x/scripts/ship.sh' } }] },
      {
        tool_calls: [
          { id: 'call_m', name: 'read_file', args: { path: path.join(home, 'skills', 'mine', 'notes.md') } },
        ],
      },
      { text: ['shipped'] },
    ],
  });
  expect(skills?.skills.map((skill) => skill.name)).toEqual(['mine', 'x']);
  await hooks?.approve();
  session.send('Ship it');
  expect((await session.idle())?.status).toBe('completed');

  const first = rig.server?.requests[0]?.body['tools'] as { function: { name: string; description: string } }[];
  const offered = first.find((tool) => tool.function.name === 'skill')?.function.description ?? '';
  expect(offered).toContain('- x: Ship a release of this project');
  expect(offered).toContain("- mine: The person's own");
  expect(offered).not.toContain('Run scripts/ship.sh');
  const [loaded, read, mine] = rig.toolResults();
  expect(loaded).toContain('<skill name="x" folder=".claude/skills/x">\n# Release\nRun scripts/ship.sh');
  expect(loaded).toContain('- .claude/skills/x/scripts/ship.sh');
  expect(read).toContain('echo shipping');
  expect(mine).toContain('my notes');
  expect(await readFile(path.join(workspace, 'hook.log'), 'utf8')).toBe(
    `PostToolUse read_file ${path.join(workspace, '.claude/skills/x/scripts/ship.sh')}\nPostToolUse read_file ${path.join(home, 'skills', 'mine', 'notes.md')}\n`,
  );
  expect(hookRuns(recorder.events).map((run) => run.source)).toEqual([
    '.claude/settings.json:7',
    '.claude/settings.json:7',
  ]);

  // The composer offers the skill as /x, which asks the model to load it.
  const commands = await withSkillCommands({ commands: [], problems: [] }, { home, workspace });
  expect(commands.commands.find((command) => command.name === 'x')).toMatchObject({
    source: 'skill',
    description: 'Ship a release of this project',
    body: 'Use the skill "x": load it with the skill tool, then follow it.',
  });
});
