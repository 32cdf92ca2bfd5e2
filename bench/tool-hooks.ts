import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { SessionLog } from '../main/session/session-log.ts';
import { SessionSink } from '../main/session/session-sink.ts';
import { StatusRecorder } from '../main/status/sink.ts';
import { defaultCallHooks } from '../main/tools/default-call-hooks.ts';
import { SessionHooks } from '../main/tools/hooks/session-hooks.ts';
import { toolUseHook } from '../main/tools/hooks/tool-use-hook.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../main/tools/permission-gate.ts';
import { ToolRegistry } from '../main/tools/registry.ts';
import { defineTool } from '../main/tools/tool.ts';
import { compare, fmt, type Timing } from './measure.ts';

// What a matching PreToolUse hook costs a call: a tool that does nothing, called through the
// registry with the session log as sink and store, with a PreToolUse hook running `true` (the
// person's shell, its own process group, the event on its stdin, its run recorded as a durable
// hook_ran event) against the same calls with no hook, interleaved in the same run.

const CALLS = 30;
const ROUNDS = 5;

const noop = defineTool({
  name: 'noop',
  model: { description: 'Does nothing.', schema: z.object({}), render: (text) => String(text) },
  gate: { kind: 'read' },
  execute: async () => 'ok',
});

async function perCall(root: string, hooks: SessionHooks | null): Promise<number> {
  const log = await SessionLog.create({ root, workspace: root, model: 'bench' });
  try {
    const sink = new SessionSink(log, new StatusRecorder());
    const registry = new ToolRegistry({
      workspace: root,
      sessionDir: log.dir,
      sink,
      store: log,
      gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no one to ask')),
      hooks: defaultCallHooks({
        before: hooks ? [toolUseHook(hooks, { sessionId: log.id, transcriptPath: log.file, sink })] : [],
      }),
    });
    registry.register(noop);
    const start = performance.now();
    for (let index = 0; index < CALLS; index += 1) {
      const outcome = await registry.call({ callId: `c${index}`, name: 'noop', args: {} });
      if (outcome.isError) throw new Error(outcome.content);
    }
    return (performance.now() - start) / CALLS;
  } finally {
    await log.close();
  }
}

function median(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return { medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0, runs: samples.length };
}

export async function run(): Promise<void> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-bench-hooks-')));
  try {
    const home = path.join(root, 'home');
    await mkdir(home, { recursive: true });
    const settings = { hooks: { PreToolUse: [{ matcher: 'noop', hooks: [{ type: 'command', command: 'true' }] }] } };
    await writeFile(path.join(home, 'settings.json'), JSON.stringify(settings));
    const hooks = await SessionHooks.load({ home, workspace: root, shell: '/bin/sh' });
    await perCall(root, hooks); // warm
    const withHook: number[] = [];
    const without: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      withHook.push(await perCall(root, hooks));
      without.push(await perCall(root, null));
    }
    const ours = median(withHook);
    const base = median(without);
    console.log(`a tool call with a matching PreToolUse hook (per call, ${CALLS} calls in a row, median of ${ROUNDS})`);
    console.log(`  ${compare('PreToolUse `true`, recorded', ours, base, 'no hook')}`);
    console.log(`  added by the hook: ${fmt(ours.medianMs - base.medianMs)} a call`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
