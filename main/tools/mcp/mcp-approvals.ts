import path from 'node:path';
import {
  serverCommandLine,
  serverFingerprint,
  serverSandbox,
  serverSecretEntries,
  type McpServerConfig,
} from './mcp-config.ts';
import { describeSandbox } from '../../../protocol/sandbox.ts';
import { secretReferences } from './mcp-secrets.ts';
import { WorkspaceApprovals } from '../workspace-approvals.ts';

// The person's approvals of workspace-defined MCP servers (workspace-approvals.ts). An approval
// covers one server of one workspace with exactly the command, arguments, environment and folder it
// was shown: any change asks again.

const APPROVALS_FILE = 'mcp-approvals.json';

/** The question the person answers before a workspace server first starts. */
export interface ServerApprovalRequest {
  title: string;
  detail: string;
}

/** Asks the person whether a workspace server may start; true: approved. */
export type AskServerApproval = (server: McpServerConfig, request: ServerApprovalRequest) => Promise<boolean>;

/** `chosen`: the person's sandbox switch on the MCP servers screen (null: the entry decides). */
export function serverApprovalRequest(server: McpServerConfig, chosen: boolean | null = null): ServerApprovalRequest {
  const secrets = secretReferences(serverSecretEntries(server));
  // A secret goes wherever the server sends it: the question names each one it would be given.
  const given =
    secrets.length > 0 ? `\n\nIt is given your secret${secrets.length === 1 ? '' : 's'} ${secrets.join(', ')}.` : '';
  return {
    title: `Start the MCP server "${server.name}" defined by this workspace`,
    detail: `${server.file} asks to run:\n${serverCommandLine(server)}${given}\n\n${sandboxSentence(server, chosen)} Approve only a command you trust; a change to it asks again.`,
  };
}

function sandboxSentence(server: McpServerConfig, chosen: boolean | null): string {
  const rules = serverSandbox(server, chosen);
  if (!rules)
    return chosen === false
      ? 'It runs outside the sandbox, with your permissions (you switched its sandbox off on the MCP servers screen).'
      : 'It runs outside the sandbox, with your permissions ("sandbox": false).';
  const reads = rules.readable
    ? `; it reads only ${['the workspace', ...rules.readable].join(', ')} and the system`
    : '';
  return `It runs in the sandbox: ${describeSandbox(rules)}${reads}.`;
}

export class McpApprovals {
  private readonly approvals: WorkspaceApprovals<'server'>;

  constructor(home: string) {
    this.approvals = new WorkspaceApprovals(path.join(home, APPROVALS_FILE), 'server');
  }

  async isApproved(workspace: string, server: McpServerConfig): Promise<boolean> {
    if (server.origin === 'user') return true;
    return this.approvals.isApproved(workspace, server.name, serverFingerprint(server));
  }

  /**
   * Whether the server may start: approved before, or approved now by the person `ask` puts the
   * question to (kept for next time). `chosen` is the screen's sandbox switch, which the question names.
   */
  async approvedOrAsked(
    workspace: string,
    server: McpServerConfig,
    chosen: boolean | null,
    ask: AskServerApproval | undefined,
  ): Promise<boolean> {
    if (await this.isApproved(workspace, server)) return true;
    if (!ask) return false;
    const yes = await ask(server, serverApprovalRequest(server, chosen)).catch(() => false);
    if (yes) await this.approve(workspace, server);
    return yes;
  }

  async approve(workspace: string, server: McpServerConfig): Promise<void> {
    await this.approvals.approve(workspace, [{ name: server.name, fingerprint: serverFingerprint(server) }]);
  }
}
