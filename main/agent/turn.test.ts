import { getEventListeners } from 'node:events';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { StatusRecorder } from '../status/sink.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../tools/permission-gate.ts';
import { ToolRegistry } from '../tools/registry.ts';
import { modelFor, ToolKit } from '../../test/agent-kit.ts';
import { runTurn } from './turn.ts';

let server: FixtureServer | undefined;
let folder: string | undefined;

afterEach(async () => {
  await server?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
  server = undefined;
  folder = undefined;
});

it("leaves no listener on the turn's signal once a turn of many steps has ended", async () => {
  const probe = { tool_calls: [{ name: 'probe', args: { name: 'p', together: 1 } }] };
  server = await startFixtureServer({
    script: { steps: [...Array.from({ length: 12 }, () => probe), { text: ['Done.'] }] },
  });
  folder = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-turn-')));
  const sink = new StatusRecorder();
  const registry = new ToolRegistry({
    workspace: folder,
    sessionDir: path.join(folder, '.session'),
    sink,
    gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no')),
  });
  registry.register(...new ToolKit().tools);
  const controller = new AbortController();
  let ids = 0;

  const outcome = await runTurn(
    {
      turnId: 't1',
      model: modelFor('anthropic', server),
      registry,
      sink,
      system: '',
      tools: [],
      effort: 'off',
      messages: [],
      signal: controller.signal,
      maxSteps: 50,
      callIds: new Set(),
      newCallId: () => `call-${(ids += 1)}`,
      takeQueued: () => [],
      recordReasoning: async () => undefined,
    },
    [{ text: 'Probe a dozen times' }],
  );

  expect(outcome.status).toBe('completed');
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
});
