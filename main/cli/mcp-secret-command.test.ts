import { spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startRemoteEverything, type RemoteEverything } from '../../test/mcp-remote-server.ts';
import { makeTempWorkspace } from '../../test/temp-workspace.ts';

// The command line reads the secrets mcp.json names from the environment: `aether tool` reaches a
// remote server whose Authorization header names one, and without the variable `aether mcp list`
// says which variable to set.

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const TOKEN = 'tok-cli-0b9e62d4f1';
let root: string;
let workspace: string;
let home: string;
let remote: RemoteEverything;

beforeEach(async () => {
  ({ root, workspace } = await makeTempWorkspace('aether-cli-mcp-secret-'));
  home = path.join(root, 'home');
  await mkdir(home);
  remote = await startRemoteEverything(TOKEN);
  await writeFile(
    path.join(home, 'mcp.json'),
    JSON.stringify({
      mcpServers: { hosted: { url: remote.url, headers: { Authorization: 'Bearer ${secret:AETHER_TEST_TOKEN}' } } },
    }),
  );
});

afterEach(async () => {
  await remote.close();
  await rm(root, { recursive: true, force: true });
});

function aether(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repo, 'bin', 'aether.js'), ...args], {
      cwd: repo,
      env: { ...process.env, AETHERCODEX_HOME: home, AETHERCODEX_SESSIONS: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

it('calls a remote tool with the secret from the environment, and names the variable when it is missing', async () => {
  const called = await aether(['tool', 'mcp__hosted__get-sum', '{"a": 40, "b": 2}', '--workspace', workspace], {
    AETHER_TEST_TOKEN: TOKEN,
  });
  expect(called.stdout).toContain('42');
  expect(called.code).toBe(0);
  expect(called.stdout + called.stderr).not.toContain(TOKEN);

  const listed = await aether(['mcp', 'list', '--workspace', workspace], { AETHER_TEST_TOKEN: '' });
  expect(listed.stdout).toContain('hosted (user): failed');
  expect(listed.stderr).toContain('needs the secret AETHER_TEST_TOKEN');
  expect(listed.stderr).toContain('Set the environment variable AETHER_TEST_TOKEN');
  expect(remote.refused).toEqual([]);
}, 60_000);
