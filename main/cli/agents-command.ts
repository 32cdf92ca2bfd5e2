import { problemLine, readAgentCatalog } from '../agent/agents/agent-catalog.ts';
import { AgentTrust } from '../agent/agents/agent-trust.ts';
import { workspaceRoot } from '../agent/workspace-files.ts';
import { configHome } from '../host/app-paths.ts';
import { parseCommandLine, UsageError, type Command } from './command.ts';
import { terminalSafe } from './terminal-text.ts';

// `aether agents list`: the agents a session can hand work to (built-in, the person's, the
// workspace's), whether each may run, and the files that could not be read, with their lines.
// `aether agents approve NAME`: the person's approval of a workspace's agent, its file printed in
// full first; a change to the file waits for approval again.

export const agentsCommand: Command = {
  usage: `agents list|approve NAME [--workspace DIR]`,
  async run(argv) {
    const { values, positionals } = parseCommandLine(argv, { workspace: { type: 'string', short: 'w' } });
    const [action, name, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`Unexpected arguments: ${extra.join(' ')}.`);
    if (action !== 'list' && action !== 'approve') throw new UsageError('Say list, or approve NAME.');
    if (action === 'approve' && !name) throw new UsageError('Name the agent to approve: aether agents approve NAME.');
    const workspace = await workspaceRoot(values.workspace ?? '.').catch((error: Error) => {
      throw new UsageError(error.message);
    });
    const home = configHome();
    const catalog = await readAgentCatalog({ workspace, home });
    const trust = new AgentTrust(home);
    const write = (text: string): void => void process.stdout.write(terminalSafe(text));
    for (const problem of catalog.problems)
      process.stderr.write(terminalSafe(`skipped ${problemLine(problem, workspace)}\n`));
    if (action === 'list') {
      for (const agent of catalog.agents) {
        const state = (await trust.isApproved(workspace, agent)) ? 'runs' : 'waits for approval';
        write(`${agent.name} (${agent.origin}${agent.file ? `, ${agent.file}` : ''}) ${state}: ${agent.description}\n`);
      }
      return catalog.problems.length > 0 ? 1 : 0;
    }
    const agent = catalog.agents.find((entry) => entry.name === name);
    if (!agent) {
      process.stderr.write(
        terminalSafe(
          `No agent is named "${name}". The agents are: ${catalog.agents.map((entry) => entry.name).join(', ')}.\n`,
        ),
      );
      return 1;
    }
    if (agent.origin !== 'workspace') {
      write(`${agent.name} is ${agent.origin === 'builtin' ? 'built in' : 'yours'}: it needs no approval.\n`);
      return 0;
    }
    await trust.approve(workspace, [agent]);
    write(
      `Approved ${agent.name} for ${workspace}; it runs with your permissions from now on, as ${agent.file} says:\n`,
    );
    write(`${agent.instructions}\n`);
    return 0;
  },
};
