import type { HooksScreen } from '../../protocol/hooks.ts';
import { SessionHooks } from '../tools/hooks/session-hooks.ts';
import type { HookCommand } from '../tools/hooks/hook-config.ts';

// What the hosts reach hooks through: a workspace's configured hooks (to list them, to approve the
// workspace's own), and how one reads in a line.

/** The hooks of a workspace as a session would run them, with what waits for approval. */
export function workspaceHooks(home: string, workspace: string): Promise<SessionHooks> {
  return SessionHooks.load({ home, workspace });
}

/** The Settings screen's list of a workspace's hooks; none without an app home to read them from. */
export async function hooksScreen(home: string | undefined, workspace: string): Promise<HooksScreen> {
  if (home === undefined) return { hooks: [], problems: [] };
  const hooks = await workspaceHooks(home, workspace);
  return { hooks: hooks.entries(), problems: [...hooks.problems] };
}

/** Approves workspace hooks by their listed ids; the open sessions of the workspace run them from then on. */
export async function approveHooks(
  home: string | undefined,
  workspace: string,
  ids: readonly string[],
): Promise<HooksScreen> {
  if (home === undefined) throw new Error('This panel reads no hooks: it was started without an app home.');
  await (await workspaceHooks(home, workspace)).approveIds(ids);
  return hooksScreen(home, workspace);
}

/** `PreToolUse (exec) npm test — .claude/settings.json:7` */
export function hookLine(hooks: SessionHooks, hook: HookCommand): string {
  const matcher = hook.matcher === '' ? '' : ` (${hook.matcher})`;
  return `${hook.event}${matcher}: ${hook.command}  — ${hooks.where(hook)}`;
}

/** What a host says of hooks when a session opens: entries left out, and the workspace's waiting for approval. */
export function hookNotices(hooks: SessionHooks | null, approveHint: string): string[] {
  if (!hooks) return [];
  const notices = [...hooks.problems];
  const pending = hooks.pending();
  if (pending.length > 0) {
    const names = pending.map((hook) => `  ${hookLine(hooks, hook)}`).join('\n');
    notices.push(
      `${pending.length === 1 ? 'A hook of this workspace does' : `${pending.length} hooks of this workspace do`} not run until you approve ${pending.length === 1 ? 'it' : 'them'} (${approveHint}):\n${names}`,
    );
  }
  return notices;
}
