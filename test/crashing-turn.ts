import { writeSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AgentSession } from '../main/agent/agent-session.ts';
import { startFixtureServer } from '../main/model/fixture-server.ts';
import { ALLOW_ALL } from '../main/tools/permission-gate.ts';
import { modelFor } from './agent-kit.ts';

// A process running one long turn, to be killed at any instant: `node test/crashing-turn.ts
// <sessions root> <workspace>`. Every event the panel is told of is written to stdout, one JSON line
// each, synchronously, before the next is forwarded: what the parent reads is what the panel saw.

const [root, workspace] = process.argv.slice(2) as [string, string];
const STEPS = 15;

await writeFile(path.join(workspace, 'a.txt'), 'alpha\n'.repeat(200));
await writeFile(path.join(workspace, 'b.txt'), 'beta\n'.repeat(200));
const step = (index: number) => ({
  tool_calls: [
    { name: 'read_file', args: { path: 'a.txt' } },
    { name: 'read_file', args: { path: 'b.txt' } },
    { name: 'write_file', args: { path: `out-${index}.txt`, content: `step ${index}\n` } },
  ],
});
const server = await startFixtureServer({
  script: { steps: [...Array.from({ length: STEPS }, (_, index) => step(index)), { text: ['Done.'] }] },
});
const session = await AgentSession.start({
  root,
  workspace,
  model: modelFor('anthropic', server),
  rules: ALLOW_ALL,
  sink: {
    emit: (event) => {
      writeSync(1, `${JSON.stringify(event)}\n`);
    },
  },
});
writeSync(1, `${JSON.stringify({ type: 'session_file', file: session.log.file })}\n`);
session.send('Read and write, many times.');
