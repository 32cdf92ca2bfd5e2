import path from 'node:path';
import type { AgentDefinition } from '../../../protocol/agents.ts';
import { WorkspaceApprovals } from '../../tools/workspace-approvals.ts';

// The person's approvals of the workspace's agent files, beside the MCP servers' and the hooks'
// in the app's home: one covers an agent of one workspace with exactly the file it was shown.

const AGENT_APPROVALS_FILE = 'agent-approvals.json';

export class AgentTrust {
  private readonly approvals: WorkspaceApprovals<'agent'>;

  constructor(home: string) {
    this.approvals = new WorkspaceApprovals(path.join(home, AGENT_APPROVALS_FILE), 'agent');
  }

  /** A built-in or a person's agent needs no approval; a workspace's, one of exactly its file. */
  async isApproved(workspace: string, agent: AgentDefinition): Promise<boolean> {
    if (agent.origin !== 'workspace' || !agent.fingerprint) return true;
    return this.approvals.isApproved(workspace, agent.name, agent.fingerprint);
  }

  async approve(workspace: string, agents: readonly AgentDefinition[]): Promise<void> {
    const entries = agents.flatMap((agent) =>
      agent.origin === 'workspace' && agent.fingerprint ? [{ name: agent.name, fingerprint: agent.fingerprint }] : [],
    );
    if (entries.length > 0) await this.approvals.approve(workspace, entries);
  }
}
