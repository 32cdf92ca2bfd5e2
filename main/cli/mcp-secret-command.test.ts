import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { aether as runAether, type Ran } from '../../test/aether-cli.ts';
import { remoteInHome, type RemoteEverything } from '../../test/mcp-remote-server.ts';
import { makeTempWorkspace } from '../../test/temp-workspace.ts';

// The command line reads the secrets mcp.json names from the environment: `aether tool` reaches a
// remote server whose Authorization header names one, and without the variable `aether mcp list`
// says which variable to set.

const TOKEN = 'tok-cli-0b9e62d4f1';
let root: string;
let workspace: string;
let home: string;
let remote: RemoteEverything;

beforeEach(async () => {
  ({ root, workspace } = await makeTempWorkspace('aether-cli-mcp-secret-'));
  home = path.join(root, 'home');
  remote = await remoteInHome(home, TOKEN, 'AETHER_TEST_TOKEN');
});

afterEach(async () => {
  await remote.close();
  await rm(root, { recursive: true, force: true });
});

function aether(args: string[], env: Record<string, string>): Promise<Ran> {
  return runAether(args, { AETHERCODEX_HOME: home, ...env });
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
