import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempWorkspace } from '../../../test/temp-workspace.ts';
import { readAgentCatalog } from './agent-catalog.ts';
import { parseAgentFile } from './agent-file.ts';

// Agent files: Markdown with front matter. What a team writes is read as it means; what cannot be
// read is named with its line and left out, the other agents still load.

const temp = useTempWorkspace('aether-agent-files-');

describe('an agent file', () => {
  it('reads its fields, its lists in each form, and its body as the instructions', () => {
    const parsed = parseAgentFile(
      '/w/.aethercodex/agents/tester.md',
      [
        '---',
        'name: tester',
        'description: "Runs the tests: and says which fail."',
        'model: anthropic:claude-haiku-4-5',
        'effort: low',
        'tools:',
        '  - read_file',
        '  - exec',
        'permission_mode: read-only',
        'nesting: true',
        '---',
        'Run `npm test` and report.',
      ].join('\n'),
      'workspace',
    );
    if (!parsed.ok) throw new Error(parsed.problem.message);
    expect(parsed.agent).toMatchObject({
      name: 'tester',
      description: 'Runs the tests: and says which fail.',
      model: 'anthropic:claude-haiku-4-5',
      effort: 'low',
      tools: ['read_file', 'exec'],
      permissionMode: 'read-only',
      nesting: true,
      instructions: 'Run `npm test` and report.',
      origin: 'workspace',
    });
    expect(parsed.agent.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it("maps a Claude Code file's tool names to this app's and leaves its model alias to the parent", () => {
    const parsed = parseAgentFile(
      '/w/.claude/agents/reviewer.md',
      '---\nname: reviewer\ndescription: Reviews.\ntools: Read, Grep, Glob, Bash\nmodel: sonnet\n---\nReview.\n',
      'workspace',
      true,
    );
    if (!parsed.ok) throw new Error(parsed.problem.message);
    expect(parsed.agent.tools).toEqual(['read_file', 'search_files', 'list_dir', 'exec']);
    expect(parsed.agent.model).toBeUndefined();
  });

  it.each([
    ['no front matter', 'Just text.\n', 1, 'starts with front matter'],
    ['no closing line', '---\nname: a\ndescription: b\n', 4, 'no closing'],
    ['a line that is not a field', '---\nname: a\ndescription: b\nthis is wrong\n---\n', 4, 'is not a field'],
    ['a quote left open', '---\nname: a\ndescription: "b\n---\n', 3, 'no closing "'],
    ['no description', '---\nname: a\n---\nBody.\n', 2, 'needs a description'],
    ['a wrong effort', '---\nname: a\ndescription: b\neffort: extreme\n---\n', 4, 'effort is one of'],
    ['a field given twice', '---\nname: a\ndescription: b\nname: c\n---\n', 4, 'given twice'],
    ['a bad name', '---\nname: a b\ndescription: b\n---\n', 2, 'may hold only'],
  ])('names the line of %s', (_what, text, line, message) => {
    const parsed = parseAgentFile('/w/.aethercodex/agents/a.md', text, 'workspace');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problem.line).toBe(line);
    expect(parsed.problem.message).toContain(message);
  });
});

describe('the agent catalog', () => {
  it('skips a malformed file with its line, keeps the others, and lets the workspace override by name', async () => {
    const own = path.join(temp.workspace, '.aethercodex', 'agents');
    const claude = path.join(temp.workspace, '.claude', 'agents');
    const home = path.join(temp.root, 'home');
    for (const folder of [own, claude, path.join(home, 'agents')]) await mkdir(folder, { recursive: true });
    await writeFile(path.join(own, 'broken.md'), '---\nname: broken\ndescription: b\n  oops: [a\n---\n');
    await writeFile(path.join(own, 'explore.md'), '---\ndescription: Our own explorer.\n---\nLook around.\n');
    await writeFile(path.join(claude, 'helper.md'), '---\nname: helper\ndescription: Helps.\n---\n');
    await writeFile(path.join(home, 'agents', 'mine.md'), '---\nname: mine\ndescription: Mine.\n---\n');
    const catalog = await readAgentCatalog({ workspace: temp.workspace, home });
    expect(catalog.agents.map((agent) => agent.name).sort()).toEqual([
      'explore',
      'general',
      'helper',
      'mine',
      'review',
    ]);
    expect(catalog.agents.find((agent) => agent.name === 'explore')?.description).toBe('Our own explorer.');
    expect(catalog.agents.find((agent) => agent.name === 'mine')?.origin).toBe('person');
    expect(catalog.problems).toHaveLength(1);
    expect(catalog.problems[0]).toMatchObject({ file: path.join(own, 'broken.md'), line: 4 });
  });
});
