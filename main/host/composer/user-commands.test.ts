import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempWorkspace } from '../../../test/temp-workspace.ts';
import { loadUserCommands, parseCommandFile } from './user-commands.ts';

const temp = useTempWorkspace('aether-commands-');

async function command(folder: string, name: string, text: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, name), text);
}

describe('parseCommandFile', () => {
  it('takes the description and argument hint from the front matter and keeps the body', () => {
    const parsed = parseCommandFile(
      '---\ndescription: "Review a file for bugs"\nargument-hint: <path>\n---\nReview $ARGUMENTS carefully.\n',
    );
    expect(parsed).toEqual({
      description: 'Review a file for bugs',
      argument_hint: '<path>',
      body: 'Review $ARGUMENTS carefully.',
    });
  });

  it('without front matter, describes the command by its first line, headings unmarked', () => {
    expect(parseCommandFile('\r\n# Explain the build\r\nThen $ARGUMENTS\r\n')).toEqual({
      description: 'Explain the build',
      body: '# Explain the build\nThen $ARGUMENTS',
    });
  });
});

describe('loadUserCommands', () => {
  it("loads the workspace's and the home's commands; the workspace wins a name both have", async () => {
    const home = path.join(temp.root, 'home');
    await command(path.join(home, 'commands'), 'review.md', '---\ndescription: mine\n---\nUser review');
    await command(path.join(home, 'commands'), 'standup.md', 'Write my standup');
    await command(path.join(temp.workspace, '.aethercodex', 'commands'), 'review.md', 'Project review of $ARGUMENTS');
    await command(path.join(temp.workspace, '.aethercodex', 'commands'), 'notes.txt', 'not a command');
    const { commands, problems } = await loadUserCommands({ workspace: temp.workspace, home });
    expect(problems).toEqual([]);
    expect(commands.map((c) => [c.name, c.source, c.body])).toEqual([
      ['review', 'workspace', 'Project review of $ARGUMENTS'],
      ['standup', 'user', 'Write my standup'],
    ]);
  });

  it('reports a file it cannot use and still loads the rest', async () => {
    const folder = path.join(temp.workspace, '.aethercodex', 'commands');
    await command(folder, 'bad name.md', 'x');
    await command(folder, 'huge.md', 'x'.repeat(70 * 1024));
    await command(folder, 'fine.md', 'ok');
    const { commands, problems } = await loadUserCommands({ workspace: temp.workspace });
    expect(commands.map((c) => c.name)).toEqual(['fine']);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('rename the file');
    expect(problems[1]).toContain('at most 65536');
  });

  it('has no commands and no problems when neither folder exists', async () => {
    expect(await loadUserCommands({ workspace: temp.workspace, home: path.join(temp.root, 'none') })).toEqual({
      commands: [],
      problems: [],
    });
  });
});
