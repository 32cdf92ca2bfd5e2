import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { hookCommandLabel } from '../../../protocol/hooks.ts';
import { isRecord } from '../../../protocol/json.ts';
import type { AfterExecute, BeforeExecute, CallHook, Executed, HookedCall } from '../call-hooks.ts';
import type { HookCommand } from './hook-config.ts';
import type { HookScope, SessionHooks } from './session-hooks.ts';

// A person's PreToolUse and PostToolUse commands in a call's phases (tool-call.ts): before execute
// they may deny the call (the model reads the reason), ask the person, or rewrite its arguments
// (checked, confined and judged by the gate again); after it they may add what the model reads, and
// a formatter's rewrite of the file the call wrote is told to the model with the file's new sha256.
// Installed first, so the checkpoint after the call holds the formatter's change too.

/** Claude Code's names for the built-in tools, so a matcher written for it (`Write|Edit`) matches ours. */
const CLAUDE_NAMES: Readonly<Record<string, readonly string[]>> = {
  exec: ['Bash'],
  write_file: ['Write'],
  patch_file: ['Edit', 'MultiEdit'],
  read_file: ['Read'],
  list_dir: ['LS', 'Glob'],
  search_files: ['Grep'],
  web_fetch: ['WebFetch'],
};

/** What a hook of the session needs besides the call: where it runs and where its record goes. */
export type CallHookScope = Omit<HookScope, 'signal' | 'callId' | 'subjects' | 'turnId' | 'sandbox'>;

export function toolUseHook(hooks: SessionHooks, scope: CallHookScope): CallHook {
  const scopeOf = (hooked: HookedCall): HookScope => ({
    ...scope,
    signal: hooked.context.signal,
    callId: hooked.call.parent ?? hooked.call.callId,
    subjects: [hooked.tool.name, ...(CLAUDE_NAMES[hooked.tool.name] ?? [])],
    sandbox: () => hooked.context.sandbox ?? null,
    ...(hooked.call.turnId ? { turnId: hooked.call.turnId } : {}),
  });
  return {
    name: 'PreToolUse',
    async beforeExecute(hooked): Promise<BeforeExecute | undefined> {
      const where = scopeOf(hooked);
      if (hooks.matching('PreToolUse', where.subjects).length === 0) return undefined;
      const input = toolInput(hooks.workspace, hooked.args);
      const outcomes = await hooks.run(
        'PreToolUse',
        { tool_name: hooked.tool.name, tool_input: input, tool_use_id: hooked.call.callId },
        where,
      );
      const denied = outcomes.find((outcome) => outcome.decision === 'deny');
      if (denied)
        return {
          deny: `Denied by the PreToolUse hook \`${hookCommandLabel(denied.hook.command)}\`: ${denied.reason ?? 'no reason given'}`,
        };
      for (const asked of outcomes.filter((outcome) => outcome.decision === 'ask')) {
        const detail = `${asked.reason ? `${asked.reason}\n\n` : ''}The hook \`${asked.hook.command}\` asks you before ${hooked.tool.name} runs.`;
        const title = hooked.description?.title ?? `Run ${hooked.tool.name}`;
        const allowed = await hooked.context.requestApproval({ title, detail, scope: hooked.tool.gate.kind });
        if (!allowed)
          return {
            deny: `The person refused ${hooked.tool.name} when the hook \`${hookCommandLabel(asked.hook.command)}\` asked.`,
          };
      }
      const rewrite = outcomes.findLast((outcome) => outcome.decision === 'rewrite');
      if (rewrite?.args) return { args: argumentsOf(hooks.workspace, hooked.args, input, rewrite.args) };
      return undefined;
    },
    async afterExecute(hooked, executed): Promise<AfterExecute | undefined> {
      const where = scopeOf(hooked);
      if (hooks.matching('PostToolUse', where.subjects).length === 0) return undefined;
      const written = writtenFiles(hooked);
      let before = await digests(written);
      const changed = new Map<string, { digest: string | null; by: string }>();
      const changes = async (hook: HookCommand): Promise<string[]> => {
        const after = await digests(written);
        const now = [...after].filter(([file, digest]) => before.get(file) !== digest).map(([file]) => file);
        for (const file of now) changed.set(file, { digest: after.get(file) ?? null, by: hook.command });
        before = after;
        return now.map((file) => path.relative(hooks.workspace, file));
      };
      const input = {
        tool_name: hooked.tool.name,
        tool_input: toolInput(hooks.workspace, hooked.args),
        tool_response: responseOf(executed),
        tool_use_id: hooked.call.callId,
      };
      const outcomes = await hooks.run('PostToolUse', input, where, changes);
      const told: string[] = [];
      for (const [file, { digest, by }] of changed) {
        const relative = path.relative(hooks.workspace, file);
        const state = digest === null ? 'removed it' : `changed it; its sha256 is now ${digest}`;
        told.push(
          `The PostToolUse hook \`${hookCommandLabel(by)}\` ran after ${hooked.tool.name} and ${state}: read ${relative} again before you edit it.`,
        );
      }
      for (const outcome of outcomes)
        if (outcome.context)
          told.push(`PostToolUse hook \`${hookCommandLabel(outcome.hook.command)}\`: ${outcome.context}`);
      return told.length > 0 ? { context: told.join('\n') } : undefined;
    },
  };
}

/**
 * The call's arguments as the hook reads them: as they are, plus `file_path` (the absolute path)
 * where the tool names one as `path`, as Claude Code's Write, Edit and Read do.
 */
function toolInput(workspace: string, args: unknown): Record<string, unknown> {
  if (!isRecord(args)) return {};
  const input: Record<string, unknown> = { ...args };
  if (typeof args['path'] === 'string' && !('file_path' in args))
    input['file_path'] = path.resolve(workspace, args['path']);
  return input;
}

/** The hook's `updatedInput` as the tool's arguments: a `file_path` it changed moves `path`. */
function argumentsOf(
  workspace: string,
  args: unknown,
  given: Record<string, unknown>,
  updated: Record<string, unknown>,
): unknown {
  if (!isRecord(args) || 'file_path' in args || !('file_path' in given)) return updated;
  const next = { ...updated };
  const filePath = next['file_path'];
  delete next['file_path'];
  if (typeof filePath === 'string' && filePath !== given['file_path'])
    next['path'] = path.relative(workspace, path.resolve(workspace, filePath));
  return next;
}

/** The tool's result as a PostToolUse hook reads it: its structured result, or its text. */
function responseOf(executed: Executed): unknown {
  if ('result' in executed && executed.result !== undefined && !executed.isError) return executed.result;
  return { content: executed.content, is_error: executed.isError };
}

/** The files the call wrote, confined real paths. */
function writtenFiles(hooked: HookedCall): string[] {
  const accesses = hooked.tool.gate.paths?.(hooked.args) ?? [];
  if (hooked.tool.gate.kind !== 'write') return [];
  return accesses
    .filter((access) => access.access === 'write')
    .map((access) => hooked.context.resolvedPath(access.path));
}

async function digests(files: readonly string[]): Promise<Map<string, string | null>> {
  const found = new Map<string, string | null>();
  for (const file of files) {
    try {
      found.set(
        file,
        createHash('sha256')
          .update(await readFile(file))
          .digest('hex'),
      );
    } catch {
      found.set(file, null);
    }
  }
  return found;
}
