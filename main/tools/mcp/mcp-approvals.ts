import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { serverCommandLine, serverFingerprint, serverSecretEntries, type McpServerConfig } from './mcp-config.ts';
import { secretReferences } from './mcp-secrets.ts';

// The person's approvals of workspace-defined MCP servers, kept in the app's home (never in the
// workspace, which the repository controls). An approval covers one server of one workspace with
// exactly the command, arguments, environment and folder it was shown: any change asks again.

const APPROVALS_FILE = 'mcp-approvals.json';

const approvalsSchema = z.object({
  approved: z.array(z.object({ workspace: z.string(), server: z.string(), fingerprint: z.string() })).default([]),
});

type Approvals = z.infer<typeof approvalsSchema>;

/** The question the person answers before a workspace server first starts. */
export interface ServerApprovalRequest {
  title: string;
  detail: string;
}

export function serverApprovalRequest(server: McpServerConfig): ServerApprovalRequest {
  const secrets = secretReferences(serverSecretEntries(server));
  // A secret goes wherever the server sends it: the question names each one it would be given.
  const given =
    secrets.length > 0 ? `\n\nIt is given your secret${secrets.length === 1 ? '' : 's'} ${secrets.join(', ')}.` : '';
  return {
    title: `Start the MCP server "${server.name}" defined by this workspace`,
    detail: `${server.file} asks to run:\n${serverCommandLine(server)}${given}\n\nIt runs with your permissions. Approve only a command you trust; a change to it asks again.`,
  };
}

export class McpApprovals {
  private readonly file: string;

  constructor(home: string) {
    this.file = path.join(home, APPROVALS_FILE);
  }

  async isApproved(workspace: string, server: McpServerConfig): Promise<boolean> {
    if (server.origin === 'user') return true;
    const fingerprint = serverFingerprint(server);
    const { approved } = await this.read();
    return approved.some(
      (entry) => entry.workspace === workspace && entry.server === server.name && entry.fingerprint === fingerprint,
    );
  }

  async approve(workspace: string, server: McpServerConfig): Promise<void> {
    const current = await this.read();
    const others = current.approved.filter((entry) => !(entry.workspace === workspace && entry.server === server.name));
    const next: Approvals = {
      approved: [...others, { workspace, server: server.name, fingerprint: serverFingerprint(server) }],
    };
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${randomUUID()}.tmp`;
    await writeFile(temp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    await rename(temp, this.file);
  }

  private async read(): Promise<Approvals> {
    try {
      return approvalsSchema.parse(JSON.parse(await readFile(this.file, 'utf8')));
    } catch (error) {
      // No file yet means nothing approved; a damaged file too, so every server asks again.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof SyntaxError) return { approved: [] };
      if (error instanceof z.ZodError) return { approved: [] };
      throw new Error(`The MCP approvals in ${this.file} could not be read: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}
