import { writeSync } from 'node:fs';
import { openAgentSession } from '../main/agent/open-agent-session.ts';
import { createModelAdapter } from '../main/model/index.ts';

// A host whose session runs agents, to be killed while they run:
// `node test/agents-host.ts <sessions root> <workspace> <fixture base URL> <message>`. It prints the
// session's id once its message is sent, then `asked <agent call>` for each question a child's
// call puts to it (never answered), and waits to be killed.

const [root, workspace, baseURL, message] = process.argv.slice(2) as [string, string, string, string];
const { session } = await openAgentSession({
  workspace,
  sessionsRoot: root,
  model: createModelAdapter('anthropic:claude-fixture', {
    env: {},
    keys: { anthropic: 'test-key' },
    baseURLs: { anthropic: baseURL },
  }),
  sink: {
    emit: (event) => {
      if (event.type === 'tool_approval_requested') writeSync(1, `asked ${event.parent_call_id ?? event.call_id}\n`);
    },
  },
  permissions: { mode: 'ask' },
  agents: {},
});
session.send(message);
writeSync(1, `${JSON.stringify({ id: session.id })}\n`);
