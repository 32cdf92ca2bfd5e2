import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { KEY_ENV } from '../../host/key-store.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../permission-gate.ts';
import { ToolRegistry } from '../registry.ts';
import { commandEnvironment, PROVIDER_KEY_VARIABLES, type CommandEnvPolicy } from './command-env.ts';
import { execTool } from './exec.ts';
import type { ExecRun } from './exec-output.ts';

// What a command the model runs sees of the app's environment: a real shell prints its own
// environment (`env`), and the test reads it back.

let root: string;
let workspace: string;
let sessionDir: string;

beforeEach(async () => {
  ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-exec-env-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const APP_ENV: NodeJS.ProcessEnv = {
  PATH: process.env['PATH'],
  HOME: '/home/someone',
  ANTHROPIC_API_KEY: 'sk-ant-secret',
  OPENAI_API_KEY: 'sk-openai-secret',
  ANTHROPIC_BASE_URL: 'https://proxy.example',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  AWS_REGION: 'eu-west-1',
  GITHUB_TOKEN: 'ghp-secret',
};

/** The environment a real child process of `exec` saw, as name → value. */
async function childEnvironment(policy?: CommandEnvPolicy): Promise<Record<string, string>> {
  const registry = new ToolRegistry({
    workspace,
    sessionDir,
    sink: new StatusRecorder(),
    gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'nobody to ask')),
    readableRoots: [sessionDir],
  });
  registry.register(execTool({ shell: '/bin/sh', env: APP_ENV, ...(policy ? { envPolicy: () => policy } : {}) }));
  const outcome = await registry.call({ callId: 'env-1', name: 'exec', args: { command: 'env' } });
  expect(outcome.isError).toBe(false);
  const lines = (outcome.result as ExecRun).output.split('\n').filter((line) => line.includes('='));
  return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

describe('the environment of commands', () => {
  it('drops the provider API keys from a command’s environment and keeps the rest', async () => {
    const seen = await childEnvironment();
    expect(seen).not.toHaveProperty('ANTHROPIC_API_KEY');
    expect(seen).not.toHaveProperty('OPENAI_API_KEY');
    expect(seen).toMatchObject({
      HOME: '/home/someone',
      ANTHROPIC_BASE_URL: 'https://proxy.example',
      AWS_SECRET_ACCESS_KEY: 'aws-secret',
      GITHUB_TOKEN: 'ghp-secret',
    });
  });

  it('drops the variables the exec_env_deny setting names, by exact name or * pattern', async () => {
    const seen = await childEnvironment({ deny: ['AWS_SECRET_*', '*_TOKEN'], allow: [] });
    expect(seen).not.toHaveProperty('AWS_SECRET_ACCESS_KEY');
    expect(seen).not.toHaveProperty('GITHUB_TOKEN');
    expect(seen).not.toHaveProperty('OPENAI_API_KEY');
    expect(seen).toMatchObject({ AWS_REGION: 'eu-west-1', HOME: '/home/someone' });
  });

  it('passes a provider key or a denied variable through when exec_env_allow names it', async () => {
    const seen = await childEnvironment({ deny: ['GITHUB_*'], allow: ['OPENAI_API_KEY', 'GITHUB_TOKEN'] });
    expect(seen).toMatchObject({ OPENAI_API_KEY: 'sk-openai-secret', GITHUB_TOKEN: 'ghp-secret' });
    expect(seen).not.toHaveProperty('ANTHROPIC_API_KEY');
  });

  it('reads the policy at every call, so a changed setting applies to the next command', async () => {
    let policy: CommandEnvPolicy = { deny: [], allow: [] };
    const registry = new ToolRegistry({
      workspace,
      sessionDir,
      sink: new StatusRecorder(),
      gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'nobody to ask')),
      readableRoots: [sessionDir],
    });
    registry.register(execTool({ shell: '/bin/sh', env: APP_ENV, envPolicy: () => policy }));
    const command = { command: 'printf "%s" "${GITHUB_TOKEN-unset}"' };
    const before = await registry.call({ callId: 'a', name: 'exec', args: command });
    policy = { deny: ['GITHUB_TOKEN'], allow: [] };
    const after = await registry.call({ callId: 'b', name: 'exec', args: command });
    expect([(before.result as ExecRun).output, (after.result as ExecRun).output]).toEqual(['ghp-secret', 'unset']);
  });

  it('covers every provider key the model layer reads', () => {
    expect([...PROVIDER_KEY_VARIABLES].sort()).toEqual(Object.values(KEY_ENV).sort());
  });

  it('matches names without regard to case on Windows only, as each platform’s environment does', () => {
    const env = { Openai_Api_Key: 'sk', Path: 'C:\\bin' };
    expect(commandEnvironment(env, { deny: [], allow: [] }, 'win32')).toEqual({ Path: 'C:\\bin' });
    expect(commandEnvironment(env, { deny: [], allow: [] }, 'linux')).toEqual(env);
  });

  it('treats regular-expression characters in a rule literally', () => {
    const env = { 'A.B': '1', AXB: '2' };
    expect(commandEnvironment(env, { deny: ['A.B'], allow: [] })).toEqual({ AXB: '2' });
  });
});
