import { writeSync } from 'node:fs';
import { AgentSession } from '../main/agent/agent-session.ts';
import { startFixtureServer } from '../main/model/fixture-server.ts';
import { ALLOW_ALL } from '../main/tools/permission-gate.ts';
import { modelFor, ToolKit } from './agent-kit.ts';

// A process whose turn never ends while messages wait behind it, to be killed:
// `node test/queueing-turn.ts <sessions root> <workspace>`. It prints the session's file, then
// `saved` once the steer and the queued messages are on disk, and waits to be killed.

const [root, workspace] = process.argv.slice(2) as [string, string];
const kit = new ToolKit();
const server = await startFixtureServer({
  script: { steps: [{ tool_calls: [{ id: 'h', name: 'hold', args: { name: 'forever' } }] }] },
});
const session = await AgentSession.start({
  root,
  workspace,
  model: modelFor('anthropic', server),
  rules: ALLOW_ALL,
  tools: kit.tools,
  sink: { emit: () => undefined },
});
session.send('Start the long thing');
await kit.running('forever');
session.send('A steer for the running turn');
for (const text of ['First queued', 'Second queued', 'Third queued'])
  session.send(text, undefined, undefined, { mode: 'queue' });
await session.queueSaved();
writeSync(1, `${JSON.stringify({ file: session.file, id: session.id })}\n`);
