import { SessionLog } from '../main/session/session-log.ts';
import { defaultCallHooks } from '../main/tools/default-call-hooks.ts';
import { longRunCall, longRunRegistry, type LongRunShape } from './long-run-calls.ts';

// The long-run bench's baseline, in a process of its own: the same calls as the session's, step by
// step, made directly through the registry with the session log as sink and store — no model, no
// turn loop, no model context. Prints each step's time; the peak RSS comes from max-rss-at-exit.cjs.

const [workspace, sessions, shapeJson] = process.argv.slice(2);
if (!workspace || !sessions || !shapeJson)
  throw new Error('usage: long-run-baseline.ts <workspace> <sessions> <shape>');
const shape = JSON.parse(shapeJson) as LongRunShape;

const log = await SessionLog.create({ root: sessions, workspace, model: 'bench' });
const registry = longRunRegistry(workspace, log, defaultCallHooks());
const steps: number[] = [];
for (let step = 0; step < shape.steps; step += 1) {
  const start = performance.now();
  await Promise.all(
    Array.from({ length: shape.parallel }, (_, index) => {
      const call = longRunCall(shape, step, index);
      return registry.call({ callId: call.id, name: call.name, args: call.args });
    }),
  );
  steps.push(performance.now() - start);
}
await log.close();
process.stdout.write(`${JSON.stringify({ steps })}\n`);
process.exit(0);
