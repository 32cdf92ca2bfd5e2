import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { conversationOf } from '../../test/agent-kit.ts';
import { startAether } from '../../test/aether-cli.ts';

// `aether run --steer-stdin`: a line written to stdin while the turn runs reaches the model after
// the running call and before its next request, as the panel's steer does; the run ends with the
// turn though stdin stays open.

let workspace = '';
let sessions = '';
let server: FixtureServer | undefined;

afterEach(async () => {
  await server?.close();
  await rm(workspace, { recursive: true, force: true });
  await rm(sessions, { recursive: true, force: true });
});

it('steers the running turn with each line of stdin, and ends with the turn', async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-steer-ws-')));
  sessions = await mkdtemp(path.join(os.tmpdir(), 'aether-steer-sessions-'));
  server = await startFixtureServer({
    script: {
      steps: [
        {
          tool_calls: [
            { id: 'wait', name: 'exec', args: { command: 'while [ ! -f go ]; do sleep 0.05; done; echo went' } },
          ],
        },
        { text: ['Steered.'] },
      ],
    },
  });
  const run = startAether(
    [
      'run',
      '--workspace',
      workspace,
      '--sessions',
      sessions,
      '--model',
      `compat:${server.baseURL}#fixture`,
      '--allow',
      'exec',
      '--json',
      '--steer-stdin',
      'Wait for go',
    ],
    {},
    undefined,
    { stdin: true },
  );
  await run.printed('"tool_started"');
  run.child.stdin!.write('\n   \nAlso mind the tests\n');
  // Taken (its queue event), held until the running command has ended.
  await run.printed('"type":"queue"');
  await writeFile(path.join(workspace, 'go'), '');
  const ran = await run.done;

  expect(ran.code).toBe(0);
  expect(server.requests).toHaveLength(2);
  expect(conversationOf(server.requests[1]!.body).slice(-2)).toEqual([
    { kind: 'tool', id: 'wait', content: expect.stringContaining('went') },
    { kind: 'user', text: 'Also mind the tests' },
  ]);
  const events = ran.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { type: string; text?: string; steer?: boolean });
  const users = events.filter((event) => event.type === 'user_message').map((event) => [event.text, event.steer]);
  expect(users).toEqual([
    ['Wait for go', undefined],
    ['Also mind the tests', true],
  ]);
}, 60_000);
