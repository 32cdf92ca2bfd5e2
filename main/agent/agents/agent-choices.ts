import type { AgentChoice } from '../../../protocol/api.ts';
import { readAgentCatalog } from './agent-catalog.ts';
import { AgentTrust } from './agent-trust.ts';

/** The agents of a workspace as the panel lists them, each with whether it may run now. */
export async function agentChoices(workspace: string, home: string | undefined): Promise<AgentChoice[]> {
  const { agents } = await readAgentCatalog({ workspace, ...(home ? { home } : {}) });
  const trust = home ? new AgentTrust(home) : null;
  return Promise.all(
    agents.map(async (agent) => ({
      name: agent.name,
      description: agent.description,
      origin: agent.origin,
      approved: agent.origin !== 'workspace' || ((await trust?.isApproved(workspace, agent)) ?? false),
    })),
  );
}
