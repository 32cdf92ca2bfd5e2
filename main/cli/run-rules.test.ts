import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempWorkspace } from '../../test/temp-workspace.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import type { FixtureScriptInput } from '../model/fixture-script.ts';
import { aether } from '../../test/aether-cli.ts';

// `aether run` with permission rules on the command line, and the bypass mode: a child process on
// the project's Node, a real temp workspace, the fixture model over HTTP.

const temp = useTempWorkspace('aether-cli-rules-');
let server: FixtureServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(script: FixtureScriptInput, flags: string[]) {
  server = await startFixtureServer({ script });
  const model = `compat:${server.baseURL}#fixture`;
  return aether([
    'run',
    ...flags,
    '--workspace',
    temp.workspace,
    '--sessions',
    temp.sessionsRoot,
    '--model',
    model,
    'Go',
  ]);
}

const calls = (...commands: string[]): FixtureScriptInput => ({
  steps: [
    { tool_calls: commands.map((command, index) => ({ id: `x${index}`, name: 'exec', args: { command } })) },
    { text: ['Done.'] },
  ],
});

describe('aether run permission rules', () => {
  it('runs what --allow-rule names, refuses what --deny-rule names, and refuses the rest headless', async () => {
    await writeFile(path.join(temp.workspace, 'keep'), '');
    const ran = await run(calls('touch allowed', 'rm -f keep', 'touch other'), [
      '--allow-rule',
      'exec(touch allowed)',
      '--deny-rule',
      'exec(rm *)',
    ]);
    expect(ran.code).toBe(0);
    await access(path.join(temp.workspace, 'keep'));
    await access(path.join(temp.workspace, 'allowed'));
    expect(ran.stdout).toMatch(/✗ Run a command · rm -f keep \([^)]+\): .*matches the deny rule exec\(rm \*\)/);
    expect(ran.stdout).toMatch(/✗ Run a command · touch other \([^)]+\): .*--allow exec/);
    await expect(access(path.join(temp.workspace, 'other'))).rejects.toThrow();
  });

  it('exits 2 naming the flag when a rule cannot be read', async () => {
    const ran = await aether([
      'run',
      '--deny-rule',
      'bash(rm *)',
      '--workspace',
      temp.workspace,
      '--model',
      'demo',
      'Go',
    ]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/In --deny-rule: "bash\(rm \*\)" is not a permission rule/);
  });

  const hook = { path: '.git/hooks/pre-commit', content: '#!/bin/sh\n' };
  const writesHook: FixtureScriptInput = {
    steps: [{ tool_calls: [{ id: 'w1', name: 'write_file', args: hook }] }, { text: ['Done.'] }],
  };

  it('refuses to write a git hook in auto mode, naming the bypass mode', async () => {
    const refused = await run(writesHook, ['--permission-mode', 'auto']);
    expect(refused.stdout).toMatch(
      /✗ Create \.git\/hooks\/pre-commit .*\.git\/hooks\/pre-commit, a protected path .*--permission-mode bypass/,
    );
    await expect(access(path.join(temp.workspace, hook.path))).rejects.toThrow();
  });

  it('writes a git hook with --permission-mode bypass', async () => {
    const bypassed = await run(writesHook, ['--permission-mode', 'bypass']);
    expect(bypassed.code).toBe(0);
    expect(await readFile(path.join(temp.workspace, hook.path), 'utf8')).toBe(hook.content);
  });
});
