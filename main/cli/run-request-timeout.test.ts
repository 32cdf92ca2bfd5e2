import { afterEach, beforeEach, expect, it } from 'vitest';
import { aether } from '../../test/aether-cli.ts';
import { useTempWorkspace } from '../../test/temp-workspace.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';

// `aether run --request-timeout SECONDS`: the overall deadline of each model request.

const temp = useTempWorkspace('aether-deadline-');
let server: FixtureServer;

beforeEach(async () => {
  server = await startFixtureServer();
});

afterEach(async () => {
  await server.close();
});

it('fails a turn whose model only trickles keep-alives once --request-timeout passes', async () => {
  server.load({
    steps: [{ text: ['Thinking ', 'forever'], fault: { type: 'trickle', after_event_containing: 'Thinking ' } }],
  });
  const model = `compat:${server.baseURL}#m`;
  const ran = await aether([
    'run',
    ...['--workspace', temp.workspace, '--sessions', temp.sessionsRoot, '--model', model, '--request-timeout', '2'],
    'Go',
  ]);
  expect(ran.code).toBe(1);
  expect(ran.stdout).toContain('Thinking ');
  expect(ran.stdout + ran.stderr).toContain('the request was still going after 2 s');
});

it('refuses a --request-timeout that is not a positive number of seconds', async () => {
  const ran = await aether([
    'run',
    '--workspace',
    temp.workspace,
    '--model',
    'demo',
    '--request-timeout',
    'soon',
    'Go',
  ]);
  expect(ran.code).toBe(2);
  expect(ran.stderr).toContain('--request-timeout takes the seconds one model request may take (above 0), not "soon"');
});
