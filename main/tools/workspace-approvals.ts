import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

// A person's approvals of what a workspace asks to run (its MCP servers, its hooks), kept in the
// app's home — never in the workspace, which the repository controls. An approval covers one named
// thing of one workspace with exactly the fingerprint it was shown with: any change asks again.

export class WorkspaceApprovals<Field extends string> {
  private readonly file: string;
  private readonly field: Field;
  private readonly schema;

  /** `file` in the app's home; `field` names the approved thing in each entry ("server", "hook"). */
  constructor(file: string, field: Field) {
    this.file = file;
    this.field = field;
    const entry = z.object({ workspace: z.string(), fingerprint: z.string(), [field]: z.string() });
    this.schema = z.object({ approved: z.array(entry).default([]) });
  }

  async isApproved(workspace: string, name: string, fingerprint: string): Promise<boolean> {
    const approved = await this.read();
    return approved.some(
      (entry) => entry['workspace'] === workspace && entry[this.field] === name && entry['fingerprint'] === fingerprint,
    );
  }

  /** Approves `name` as `fingerprint` says; an earlier approval of the same name is replaced. */
  async approve(workspace: string, entries: readonly { name: string; fingerprint: string }[]): Promise<void> {
    const names = new Set(entries.map((entry) => entry.name));
    const others = (await this.read()).filter(
      (entry) => !(entry['workspace'] === workspace && names.has(entry[this.field] ?? '')),
    );
    const added = entries.map(({ name, fingerprint }) => ({ workspace, [this.field]: name, fingerprint }));
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${randomUUID()}.tmp`;
    await writeFile(temp, `${JSON.stringify({ approved: [...others, ...added] }, null, 2)}\n`, { mode: 0o600 });
    await rename(temp, this.file);
  }

  private async read(): Promise<Record<string, string>[]> {
    try {
      return this.schema.parse(JSON.parse(await readFile(this.file, 'utf8'))).approved as Record<string, string>[];
    } catch (error) {
      // No file yet means nothing approved; a damaged file too, so everything asks again.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof SyntaxError) return [];
      if (error instanceof z.ZodError) return [];
      throw new Error(`The approvals in ${this.file} could not be read: ${(error as Error).message}`, { cause: error });
    }
  }
}
