import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { errorMessage } from '../../../protocol/errors.ts';
import { mcpToolPolicySchema, type McpToolPolicy } from '../../../protocol/mcp.ts';

// The person's choices on the MCP servers screen: servers switched off, tools hidden from the model,
// and allow / ask / deny per tool. Kept in the app's home beside mcp.json (a repository cannot
// allow its own tools), keyed by server name and the server's own tool name.

const PREFERENCES_FILE = 'mcp-preferences.json';

const toolPreferenceSchema = z.object({
  enabled: z.boolean().optional(),
  policy: mcpToolPolicySchema.optional(),
});

const preferencesSchema = z.object({
  servers: z
    .record(z.string(), z.object({ enabled: z.boolean().optional(), sandboxed: z.boolean().optional() }))
    .default({}),
  tools: z.record(z.string(), z.record(z.string(), toolPreferenceSchema)).default({}),
});

export type McpPreferencesData = z.infer<typeof preferencesSchema>;

export interface ToolPreferenceChange {
  enabled?: boolean;
  /** null: back to what the permission mode decides. */
  policy?: McpToolPolicy | null;
}

export class McpPreferences {
  private readonly file: string;
  private data: McpPreferencesData = { servers: {}, tools: {} };
  /** Writes one after another, so two quick changes never race on the file. */
  private writing: Promise<void> = Promise.resolve();

  constructor(home: string) {
    this.file = path.join(home, PREFERENCES_FILE);
  }

  /** Reads the file; a missing one means no choices yet, a damaged one is reported and ignored. */
  async load(): Promise<string | null> {
    try {
      this.data = preferencesSchema.parse(JSON.parse(await readFile(this.file, 'utf8')));
      return null;
    } catch (error) {
      this.data = { servers: {}, tools: {} };
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      return `${this.file} could not be used (${errorMessage(error)}); every server and tool has its default until you change one.`;
    }
  }

  serverEnabled(server: string): boolean {
    return this.data.servers[server]?.enabled ?? true;
  }

  toolEnabled(server: string, tool: string): boolean {
    return this.data.tools[server]?.[tool]?.enabled ?? true;
  }

  toolPolicy(server: string, tool: string): McpToolPolicy | null {
    return this.data.tools[server]?.[tool]?.policy ?? null;
  }

  /** The person's choice of sandbox for a command server; null: its mcp.json entry decides. */
  serverSandboxed(server: string): boolean | null {
    return this.data.servers[server]?.sandboxed ?? null;
  }

  async setServerEnabled(server: string, enabled: boolean): Promise<void> {
    this.data.servers[server] = { ...this.data.servers[server], enabled };
    await this.save();
  }

  async setServerSandboxed(server: string, sandboxed: boolean): Promise<void> {
    this.data.servers[server] = { ...this.data.servers[server], sandboxed };
    await this.save();
  }

  async setTool(server: string, tool: string, change: ToolPreferenceChange): Promise<void> {
    const tools = (this.data.tools[server] ??= {});
    const next = { ...tools[tool] };
    if (change.enabled !== undefined) next.enabled = change.enabled;
    if (change.policy === null) delete next.policy;
    else if (change.policy !== undefined) next.policy = change.policy;
    tools[tool] = next;
    await this.save();
  }

  private save(): Promise<void> {
    const text = `${JSON.stringify(this.data, null, 2)}\n`;
    this.writing = this.writing
      .catch(() => undefined)
      .then(async () => {
        await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
        const temp = `${this.file}.${randomUUID()}.tmp`;
        await writeFile(temp, text, { mode: 0o600 });
        await rename(temp, this.file);
      });
    return this.writing;
  }
}
