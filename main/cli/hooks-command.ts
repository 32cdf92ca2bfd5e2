import { hookLine, workspaceHooks } from '../agent/hooks.ts';
import { workspaceRoot } from '../agent/workspace-files.ts';
import { configHome } from '../host/app-paths.ts';
import { parseCommandLine, UsageError, type Command } from './command.ts';
import { terminalSafe } from './terminal-text.ts';

// `aether hooks list`: every hook the settings files configure for a workspace, and whether it runs.
// `aether hooks approve`: the person's approval of the workspace's own hooks, each printed in full
// first; a hook that changes later waits for approval again.

export const hooksCommand: Command = {
  usage: `hooks list|approve [--workspace DIR]`,
  async run(argv) {
    const { values, positionals } = parseCommandLine(argv, { workspace: { type: 'string', short: 'w' } });
    const [action, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`Unexpected arguments: ${extra.join(' ')}.`);
    if (action !== 'list' && action !== 'approve') throw new UsageError('Say list or approve.');
    const workspace = await workspaceRoot(values.workspace ?? '.').catch((error: Error) => {
      throw new UsageError(error.message);
    });
    const home = configHome();
    const hooks = await workspaceHooks(home, workspace);
    const write = (text: string): void => void process.stdout.write(terminalSafe(text));
    for (const problem of hooks.problems) process.stderr.write(terminalSafe(`${problem}\n`));
    if (action === 'list') {
      if (hooks.all().length === 0)
        write(`No hooks are configured (${home}/settings.json, .aethercodex/settings.json, .claude/settings.json).\n`);
      const pending = new Set(hooks.pending());
      for (const hook of hooks.all())
        write(`${pending.has(hook) ? 'waits for approval' : 'runs'}  ${hookLine(hooks, hook)}\n`);
      return 0;
    }
    const pending = hooks.pending();
    if (pending.length === 0) {
      write('No hook of this workspace waits for approval.\n');
      return 0;
    }
    await hooks.approve(pending);
    write(`Approved for ${workspace}; these run with your permissions from now on:\n`);
    for (const hook of pending) write(`  ${hookLine(hooks, hook)}\n`);
    return 0;
  },
};
