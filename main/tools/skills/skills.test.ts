import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { discoverSkills, parseSkillFile } from './skills.ts';

// SKILL.md folders: where they are found, how the front matter reads, and every file that cannot
// be a skill named with its line while the others still load.

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-skills-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function skill(folder: string, text: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'SKILL.md'), text);
}

it('reads name, description (a folded block too) and allowed tools, and the body after the front matter', () => {
  const parsed = parseSkillFile(
    [
      '---',
      'name: release',
      'description: >',
      '  Cut a release: bump the version,',
      '  tag and publish.',
      'allowed-tools: Bash, Read',
      '---',
      '',
      '# Release',
      'Steps.',
    ].join('\n'),
  );
  expect(parsed).toEqual({
    fields: {
      name: 'release',
      description: 'Cut a release: bump the version, tag and publish.',
      allowedTools: ['Bash', 'Read'],
    },
    body: '# Release\nSteps.',
  });
});

it('names what is wrong with a SKILL.md and on which line', () => {
  expect(parseSkillFile('# no front matter')).toEqual({ problem: expect.stringContaining('no front matter'), line: 1 });
  expect(parseSkillFile('---\nname: x\n')).toMatchObject({ problem: expect.stringContaining('never closed') });
  expect(parseSkillFile('---\nname: x\njust words\n---\n')).toEqual({
    problem: '"just words" is not a "key: value" line of the front matter.',
    line: 3,
  });
  expect(parseSkillFile('---\nname: x\n---\nbody')).toMatchObject({
    problem: expect.stringContaining('no description'),
  });
});

it("finds the workspace's and the person's skills, a workspace one winning a shared name, and skips a bad one naming it", async () => {
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'ws');
  await skill(path.join(home, 'skills', 'notes'), '---\nname: notes\ndescription: Mine.\n---\nMine.');
  await skill(path.join(home, 'skills', 'shared'), "---\nname: shared\ndescription: The person's.\n---\n");
  await skill(path.join(workspace, '.claude', 'skills', 'x'), '---\nname: x\ndescription: From Claude.\n---\nDo x.');
  await skill(
    path.join(workspace, '.agents', 'skills', 'shared'),
    "---\nname: shared\ndescription: The repository's.\n---\n",
  );
  await skill(path.join(workspace, '.aethercodex', 'skills', 'broken'), '---\nname: broken\ndescription oops\n---\n');
  await mkdir(path.join(workspace, '.claude', 'skills', 'no-skill-file'), { recursive: true });
  const found = await discoverSkills({ home, workspace });
  expect(found.skills.map((one) => [one.name, one.origin, one.description])).toEqual([
    ['notes', 'user', 'Mine.'],
    ['shared', 'workspace', "The repository's."],
    ['x', 'workspace', 'From Claude.'],
  ]);
  expect(found.problems).toEqual([
    `${path.join(workspace, '.aethercodex', 'skills', 'broken', 'SKILL.md')}:3: "description oops" is not a "key: value" line of the front matter. The skill is left out.`,
  ]);
});
