import type { AgentDefinition } from '../../../protocol/agents.ts';
import type { OpenAgentSessionOptions } from '../open-agent-session.ts';
import { problemLine, readAgentCatalog } from './agent-catalog.ts';
import { AgentTrust } from './agent-trust.ts';

// A session started *as* an agent (`aether run --agent NAME`): the agent's instructions after the
// system prompt, its tools, its model and effort, read-only when it says so. A workspace's agent
// runs once the person approved its file, as when a session hands it a task.

export class AgentChoiceError extends Error {
  override name = 'AgentChoiceError';
}

/** What opening a session as `name` changes in the door's options; throws AgentChoiceError saying why it cannot. */
export async function asAgentOptions(
  options: OpenAgentSessionOptions,
  name: string,
): Promise<Partial<OpenAgentSessionOptions>> {
  const home = options.agents?.home;
  const catalog = await readAgentCatalog({ workspace: options.workspace, ...(home ? { home } : {}) });
  const agent = catalog.agents.find((entry) => entry.name === name);
  if (!agent) {
    const broken = catalog.problems.map((problem) => problemLine(problem, options.workspace));
    throw new AgentChoiceError(
      `No agent is named "${name}". The agents are: ${catalog.agents.map((entry) => entry.name).join(', ')}.` +
        (broken.length > 0 ? ` These files could not be read: ${broken.join('; ')}` : ''),
    );
  }
  if (agent.origin === 'workspace' && !(home && (await new AgentTrust(home).isApproved(options.workspace, agent))))
    throw new AgentChoiceError(
      `The agent "${name}" is defined by this workspace (${agent.file}) and runs once you approve it: read the file, then run \`aether agents approve ${name}\`.`,
    );
  return shapeOf(agent, options);
}

function shapeOf(agent: AgentDefinition, options: OpenAgentSessionOptions): Partial<OpenAgentSessionOptions> {
  const readOnly = agent.permissionMode === 'read-only';
  const named = agent.tools ? new Set(agent.tools) : null;
  const before = options.tools;
  return {
    ...(agent.instructions ? { instructions: agent.instructions } : {}),
    ...(agent.model ? { model: agent.model } : {}),
    ...(agent.effort ? { effort: agent.effort } : {}),
    ...(named || readOnly
      ? {
          tools: (tool) =>
            (before?.(tool) ?? true) && (!named || named.has(tool.name)) && (!readOnly || tool.gate.kind === 'read'),
        }
      : {}),
    ...(readOnly && !options.gate ? { permissions: { ...options.permissions, mode: 'read-only' as const } } : {}),
    // Its own agents only when its definition allows them.
    ...(agent.nesting ? {} : { agents: undefined }),
  };
}
