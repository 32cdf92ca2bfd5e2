import type { AnyTool, ToolContext, ToolDefinition } from '../../tools/tool.ts';

// Children that run side by side may write the same file. Their writes to one file take turns: a
// write waits for the one before it to end, so its own read of the file (patch_file matches its
// edits against what is there now, write_file checks the hash it was given) sees what the first
// one wrote, and the lost-update rules of one agent decide. Writes to other files do not wait.

export class FileTurns {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `work` once every earlier holder of these files is done; the files in a fixed order, so two writers never wait on each other. */
  async with<T>(files: readonly string[], work: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(files)].sort();
    const releases: (() => void)[] = [];
    try {
      for (const file of sorted) releases.push(await this.take(file));
      return await work();
    } finally {
      for (const release of releases.reverse()) release();
    }
  }

  private async take(file: string): Promise<() => void> {
    const before = this.tails.get(file) ?? Promise.resolve();
    let release = (): void => undefined;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => mine);
    this.tails.set(file, tail);
    await before;
    return () => {
      release();
      // The last holder leaves nothing behind.
      if (this.tails.get(file) === tail) this.tails.delete(file);
    };
  }
}

/** The tool as a child runs it: a call that writes files takes its turn at each of them. */
export function takingTurns(tool: AnyTool, turns: FileTurns): AnyTool {
  const definition = tool as unknown as ToolDefinition<unknown, unknown>;
  const paths = definition.gate.paths;
  if (!paths) return tool;
  const wrapped: ToolDefinition<unknown, unknown> = {
    ...definition,
    execute: (args: unknown, ctx: ToolContext) => {
      const written = paths(args)
        .filter((entry) => entry.access === 'write')
        .map((entry) => ctx.resolvedPath(entry.path));
      if (written.length === 0) return definition.execute(args, ctx);
      return turns.with(written, () => definition.execute(args, ctx));
    },
  };
  return wrapped as unknown as AnyTool;
}
