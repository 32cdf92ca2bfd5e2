import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCodeFixture } from '../../test/run-code-fixture.ts';
import { makeTempWorkspace, type TempWorkspace } from '../../test/temp-workspace.ts';
import { headlessGate } from '../agent/permissions.ts';
import { StatusRecorder } from '../status/sink.ts';
import { patchFileTool } from './files/patch-file.ts';
import { writeFileTool } from './files/write-file.ts';
import { DEFAULT_RULES, PermissionGate, type ApprovalQuestion, type GateRules } from './permission-gate.ts';
import { ToolRegistry } from './registry.ts';

// The attack of a model that may write files but not run commands: it plants a command in
// .git/config (core.fsmonitor) or a git hook, and the person's next `git status` runs it. Writes to
// protected paths always ask, in every mode but bypass, and say why the path is sensitive.

const WRITES_ONLY: GateRules = { ...DEFAULT_RULES, write: 'allow', exec: 'deny', ssh: 'deny' };

let temp: TempWorkspace;
let marker: string;

beforeEach(async () => {
  temp = await makeTempWorkspace('aether-protected-');
  marker = path.join(temp.root, 'pwned');
  execFileSync('git', ['init', '-q'], { cwd: temp.workspace });
});

afterEach(async () => {
  await rm(temp.root, { recursive: true, force: true });
});

/** A registry whose questions are recorded and denied, as a person who reads the warning would. */
function panelRegistry(rules: GateRules, options: ConstructorParameters<typeof PermissionGate>[2] = {}) {
  const asked: ApprovalQuestion[] = [];
  const gate = new PermissionGate(
    rules,
    {
      ask: async (question) => {
        asked.push(question);
        return 'deny';
      },
    },
    options,
  );
  return { asked, registry: registryWith(gate) };
}

function registryWith(gate: PermissionGate): ToolRegistry {
  const registry = new ToolRegistry({
    workspace: temp.workspace,
    sessionDir: temp.sessionDir,
    sink: new StatusRecorder(),
    gate,
  });
  return registry.register(writeFileTool(), patchFileTool());
}

let calls = 0;
const call = (registry: ToolRegistry, name: string, args: unknown) =>
  registry.call({ callId: `call-${(calls += 1)}`, name, args });

/** The attack: core.fsmonitor names a command, a pre-commit hook is another; then git runs. */
async function plant(registry: ToolRegistry, configPath = '.git/config', hooksPath = '.git/hooks/pre-commit') {
  const config = await call(registry, 'patch_file', {
    path: configPath,
    edits: [{ old_text: '[core]\n', new_text: `[core]\n\tfsmonitor = echo >${marker}\n` }],
  });
  const hook = await call(registry, 'write_file', { path: hooksPath, content: `#!/bin/sh\necho >${marker}\n` });
  return { config, hook };
}

function gitStatus(): void {
  execFileSync('git', ['status', '--short'], { cwd: temp.workspace, stdio: 'ignore' });
}

describe('protected paths', () => {
  it('asks before the git fsmonitor and hook attack when only writes are allowed, saying why', async () => {
    const { asked, registry } = panelRegistry(WRITES_ONLY);
    const { config, hook } = await plant(registry);

    expect(config.isError && hook.isError).toBe(true);
    expect(asked.map((question) => question.request.warning)).toEqual([
      expect.stringMatching(/^\.git\/config is a protected path: git runs hooks and programs named in its config/),
      expect.stringMatching(/^\.git\/hooks\/pre-commit is a protected path: git runs hooks/),
    ]);
    // "Always" is not offered: a protected path asks every time.
    expect(asked.every((question) => question.request.always_rules === undefined)).toBe(true);
    expect(await readFile(path.join(temp.workspace, '.git/config'), 'utf8')).not.toContain('fsmonitor');
    gitStatus();
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses the attack in a headless run with writes allowed, naming the bypass mode', async () => {
    const registry = registryWith(headlessGate({ allow: ['write'] }));
    const { config, hook } = await plant(registry);
    expect(config.content).toMatch(
      /Refused: patch_file would change \.git\/config, a protected path .*--permission-mode bypass/,
    );
    expect(hook.isError).toBe(true);
    gitStatus();
    expect(existsSync(marker)).toBe(false);
  });

  it('writes protected paths without asking only in bypass mode, where the attack is real', async () => {
    const registry = registryWith(headlessGate({ mode: 'bypass' }));
    const { config, hook } = await plant(registry);
    expect([config.isError, hook.isError]).toEqual([false, false]);
    gitStatus();
    expect(existsSync(marker)).toBe(true);
  });

  it('asks for another case of .git and for a path that reaches .git through a link', async () => {
    await mkdir(path.join(temp.workspace, 'tools'));
    await symlink(path.join(temp.workspace, '.git', 'hooks'), path.join(temp.workspace, 'tools', 'hooks'));
    await writeFile(path.join(temp.workspace, 'notes.txt'), 'notes\n');
    const { asked, registry } = panelRegistry(WRITES_ONLY);

    await call(registry, 'write_file', { path: '.GIT/info/attributes', content: '* filter=x\n' });
    await call(registry, 'write_file', { path: 'tools/hooks/post-checkout', content: '#!/bin/sh\n' });
    expect(asked.map((question) => question.request.warning)).toEqual([
      expect.stringMatching(/^\.GIT\/info\/attributes is a protected path/),
      expect.stringMatching(/^\.git\/hooks\/post-checkout is a protected path/),
    ]);
    expect(existsSync(path.join(temp.workspace, '.git/hooks/post-checkout'))).toBe(false);
  });

  it("asks for a run_code program's nested write to a git hook, with code and writes allowed", async () => {
    const asked: ApprovalQuestion[] = [];
    const fixture = await runCodeFixture({
      rules: WRITES_ONLY,
      approver: {
        ask: async (question) => {
          asked.push(question);
          return 'deny';
        },
      },
    });
    try {
      const outcome = await fixture.registry.call({
        callId: 'code-1',
        name: 'run_code',
        args: {
          code: "const r = await tools.write_file({ path: '.git/hooks/post-merge', content: '#!/bin/sh' }); return r;",
        },
      });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ parentCallId: 'code-1', name: 'write_file' });
      expect(asked[0]!.request.warning).toMatch(/^\.git\/hooks\/post-merge is a protected path: git runs hooks/);
      expect(outcome.content).toMatch(/Denied by the user/);
      expect(existsSync(path.join(fixture.workspace, '.git/hooks/post-merge'))).toBe(false);
    } finally {
      await fixture.dispose();
    }
  });

  it('asks for protected paths even when an allow rule names them, and a deny rule still wins', async () => {
    const { asked, registry } = panelRegistry(WRITES_ONLY, {
      rules: { allow: ['write(**)'], ask: [], deny: ['write(.vscode/launch.json)'] },
    });
    await call(registry, 'write_file', { path: '.vscode/tasks.json', content: '{}' });
    const denied = await call(registry, 'write_file', { path: '.vscode/launch.json', content: '{}' });
    const plain = await call(registry, 'write_file', { path: 'src/app.ts', content: 'export {};\n' });

    expect(asked.map((question) => question.request.warning)).toEqual([
      expect.stringMatching(/VS Code runs the tasks/),
    ]);
    expect(denied.content).toMatch(/matches the deny rule write\(\.vscode\/launch\.json\)/);
    expect(plain.isError).toBe(false);
  });
});
