import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../protocol/errors.ts';
import { withOlder, withoutPrompt, withPrompt } from '../../protocol/prompt-history.ts';

// A workspace's prompt history on disk, in the app's data folder (beside settings.json:
// `prompt-history/<hash of the workspace>.json`, 0600, holding the workspace's path and its
// prompts, newest last), so it survives a restart of the host and is the same for every window of
// it. Each change reads the file again, applies itself and replaces the file whole (a temp file
// renamed over it), one change at a time. A file that cannot be read as a history is moved aside
// (`….damaged.json`), never written over, and the history starts again empty.

interface HistoryFile {
  workspace: string;
  prompts: string[];
}

export class PromptHistoryFile {
  readonly file: string;
  private readonly workspace: string;
  private changes: Promise<unknown> = Promise.resolve();

  constructor(folder: string, workspace: string) {
    this.workspace = workspace;
    const name = createHash('sha256').update(workspace).digest('hex').slice(0, 32);
    this.file = path.join(folder, 'prompt-history', `${name}.json`);
  }

  /** The prompts, newest last. */
  list(): Promise<string[]> {
    return this.queue(() => this.read());
  }

  /** Remembers a prompt sent; answers with the history after it. */
  add(prompt: string): Promise<string[]> {
    return this.change((prompts) => withPrompt(prompts, prompt));
  }

  /** Puts prompts kept elsewhere before (an older version's, in the page's storage); answers with the history after it. */
  addOlder(prompts: readonly string[]): Promise<string[]> {
    return this.change((kept) => withOlder(kept, prompts));
  }

  /** Forgets a prompt (Shift+Delete); answers with the history after it. */
  forget(prompt: string): Promise<string[]> {
    return this.change((prompts) => withoutPrompt(prompts, prompt));
  }

  private change(apply: (prompts: string[]) => string[]): Promise<string[]> {
    return this.queue(async () => {
      const before = await this.read();
      const after = apply(before);
      if (after.length !== before.length || after.some((entry, index) => entry !== before[index]))
        await this.write(after);
      return after;
    });
  }

  private queue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.changes.then(task, task);
    this.changes = run.catch(() => undefined);
    return run;
  }

  private async read(): Promise<string[]> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new Error(`Cannot read the prompt history ${this.file}: ${errorMessage(error)}`, { cause: error });
    }
    const parsed = parseHistory(text);
    if (parsed && parsed.workspace === this.workspace) return parsed.prompts;
    // Not a history of this workspace: kept aside for the person, and the history starts again.
    await rename(this.file, this.file.replace(/\.json$/, '.damaged.json')).catch(() => undefined);
    return [];
  }

  private async write(prompts: string[]): Promise<void> {
    const temp = `${this.file}.${randomUUID()}.tmp`;
    const content: HistoryFile = { workspace: this.workspace, prompts };
    try {
      await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      await writeFile(temp, `${JSON.stringify(content)}\n`, { mode: 0o600 });
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw new Error(`Cannot save the prompt history to ${this.file}: ${errorMessage(error)}`, { cause: error });
    }
  }
}

function parseHistory(text: string): HistoryFile | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return null;
    const { workspace, prompts } = value as Record<string, unknown>;
    if (typeof workspace !== 'string' || !Array.isArray(prompts)) return null;
    if (!prompts.every((entry): entry is string => typeof entry === 'string')) return null;
    return { workspace, prompts };
  } catch {
    return null;
  }
}
