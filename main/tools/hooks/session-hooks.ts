import { createHash } from 'node:crypto';
import path from 'node:path';
import type { HookRanEvent } from '../../../protocol/events.ts';
import type { HookEntry, HookEventName } from '../../../protocol/hooks.ts';
import type { SandboxRules } from '../../../protocol/sandbox.ts';
import type { StatusSink } from '../../status/sink.ts';
import type { CommandEnvPolicy } from '../exec/command-env.ts';
import { WorkspaceApprovals } from '../workspace-approvals.ts';
import { answerOf, type HookAnswer } from './hook-answer.ts';
import { hookFingerprint, loadHooks, matcherPattern, type HookCommand, type HookConfig } from './hook-config.ts';
import { runHookCommand, type HookRun } from './hook-runner.ts';

// The hooks one session runs: read from the settings files when it opens, each workspace hook kept
// back until the person approved it (command by command, in the app's home, asked again when it
// changes), and run at the moments the session names. Every run is a durable `hook_ran` event, so
// the transcript's line and the decision replay without running the hook again.

const APPROVALS_FILE = 'hook-approvals.json';
/** What of a hook's stdout and stderr its event keeps (the rest was read, or counted and dropped). */
const RECORDED_OUTPUT = 16 * 1024;

export interface SessionHooksOptions {
  /** The app's home: the person's settings.json, and the approvals. */
  home: string;
  workspace: string;
  /** exec's environment policy, read at each run. */
  envPolicy?: () => Promise<CommandEnvPolicy> | CommandEnvPolicy;
  /** The shell hooks run in; default $SHELL, else /bin/sh. */
  shell?: string;
}

/** Where a hook runs: the session it belongs to and what it acts on. */
export interface HookScope {
  sessionId: string;
  /** The session's log, for hooks written for Claude Code that read `transcript_path`. */
  transcriptPath: string;
  sink: StatusSink;
  signal: AbortSignal;
  turnId?: string;
  callId?: string;
  /** What the matcher is tried on: the tool's names, the compaction's trigger, the start's source. */
  subjects?: readonly string[];
  /** The sandbox the session's mode runs commands in now: hooks run in it too. */
  sandbox?: () => SandboxRules | null;
}

/** One hook's run as the session acts on it. */
export interface HookOutcome extends HookAnswer {
  hook: HookCommand;
}

export class SessionHooks {
  readonly workspace: string;
  /** What in the settings files was left out, each naming its file and line. */
  readonly problems: readonly string[];
  private readonly options: SessionHooksOptions;
  private readonly commands: readonly HookCommand[];
  private readonly approvals: WorkspaceApprovals<'hook'>;
  private approved: Set<HookCommand>;

  private constructor(options: SessionHooksOptions, config: HookConfig, approved: Set<HookCommand>) {
    this.options = options;
    this.workspace = options.workspace;
    this.commands = config.commands;
    this.problems = config.problems;
    this.approvals = approvalsOf(options.home);
    this.approved = approved;
  }

  static async load(options: SessionHooksOptions): Promise<SessionHooks> {
    const config = await loadHooks(options);
    const approvals = approvalsOf(options.home);
    const approved = new Set<HookCommand>();
    for (const hook of config.commands)
      if (
        hook.origin === 'user' ||
        (await approvals.isApproved(options.workspace, approvalName(hook), hookFingerprint(hook)))
      )
        approved.add(hook);
    const hooks = new SessionHooks(options, config, approved);
    live.add(new WeakRef(hooks));
    return hooks;
  }

  /** Every configured hook, approved or not. */
  all(): readonly HookCommand[] {
    return this.commands;
  }

  /** The workspace's hooks that do not run until the person approves them. */
  pending(): HookCommand[] {
    return this.commands.filter((hook) => !this.approved.has(hook));
  }

  /**
   * Approves the workspace's hooks given (default: every pending one) as they are now; the open
   * sessions of the same workspace run them from their next moment on.
   */
  async approve(hooks: readonly HookCommand[] = this.pending()): Promise<void> {
    const entries = hooks.map((hook) => ({ name: approvalName(hook), fingerprint: hookFingerprint(hook) }));
    await this.approvals.approve(this.workspace, entries);
    const keys = new Set(hooks.map(hookKey));
    for (const ref of live) {
      const other = ref.deref();
      if (!other) live.delete(ref);
      else if (other.workspace === this.workspace && other.options.home === this.options.home)
        other.approved = new Set([...other.approved, ...other.commands.filter((hook) => keys.has(hookKey(hook)))]);
    }
  }

  /** Each hook as the Settings screen lists it; `id` names it for `approveIds`. */
  entries(): HookEntry[] {
    return this.commands.map((hook) => ({
      id: hookKey(hook),
      event: hook.event,
      matcher: hook.matcher,
      command: hook.command,
      timeout_s: hook.timeoutS,
      source: this.where(hook),
      origin: hook.origin,
      approved: this.approved.has(hook),
    }));
  }

  /** Approves the pending hooks of these ids (an id of a hook that changed since names nothing). */
  async approveIds(ids: readonly string[]): Promise<void> {
    const wanted = new Set(ids);
    const hooks = this.pending().filter((hook) => wanted.has(hookKey(hook)));
    if (hooks.length < wanted.size)
      throw new Error('A hook to approve is no longer configured as it was shown: look at the list again.');
    await this.approve(hooks);
  }

  /** The approved hooks of an event whose matcher takes one of the subjects. */
  matching(event: HookEventName, subjects?: readonly string[]): HookCommand[] {
    return this.commands.filter((hook) => {
      if (hook.event !== event || !this.approved.has(hook)) return false;
      if (!subjects) return true;
      const pattern = matcherPattern(hook.matcher);
      return pattern !== null && subjects.some((subject) => pattern.test(subject));
    });
  }

  /**
   * Runs the event's matching hooks with `input` on their stdin, records each run, and returns what
   * each decided, in the order configured. They run side by side; with `changes` (what a PostToolUse
   * hook may rewrite) one after another, each run's changed files named on its record. A hook that
   * fails decides nothing.
   */
  async run(
    event: HookEventName,
    input: Record<string, unknown>,
    scope: HookScope,
    changes?: (hook: HookCommand) => Promise<string[]>,
  ): Promise<HookOutcome[]> {
    const hooks = this.matching(event, scope.subjects);
    if (hooks.length === 0) return [];
    const payload = {
      session_id: scope.sessionId,
      transcript_path: scope.transcriptPath,
      cwd: this.workspace,
      workspace: this.workspace,
      hook_event_name: event,
      ...input,
    };
    const runOne = async (hook: HookCommand): Promise<{ outcome: HookOutcome; record: HookRanEvent }> => {
      const run = await runHookCommand(hook, payload, {
        workspace: this.workspace,
        signal: scope.signal,
        ...(this.options.envPolicy ? { envPolicy: this.options.envPolicy } : {}),
        ...(this.options.shell ? { shell: this.options.shell } : {}),
        sandbox: scope.sandbox?.() ?? null,
      });
      const outcome = { hook, ...answerOf(hook, run) };
      const record = recordOf(this, outcome, run, scope);
      const changed = changes ? await changes(hook) : [];
      if (changed.length > 0) record.changed = changed;
      return { outcome, record };
    };
    const ran: { outcome: HookOutcome; record: HookRanEvent }[] = [];
    if (changes) for (const hook of hooks) ran.push(await runOne(hook));
    else ran.push(...(await Promise.all(hooks.map(runOne))));
    for (const { record } of ran) await scope.sink.emit(record);
    return ran.map(({ outcome }) => outcome);
  }

  /** Where a hook is configured, as its record names it: the file (relative in the workspace) and line. */
  where(hook: HookCommand): string {
    const file = hook.origin === 'workspace' ? path.relative(this.workspace, hook.file) : hook.file;
    return hook.line === null ? file : `${file}:${hook.line}`;
  }
}

/** The sessions' hooks in this process, so an approval reaches the open sessions of its workspace. */
const live = new Set<WeakRef<SessionHooks>>();

/** A hook as it is now: its event, matcher, command and limits, and where it is configured. */
function hookKey(hook: HookCommand): string {
  return createHash('sha256')
    .update(`${hook.file}\0${hookFingerprint(hook)}`)
    .digest('hex')
    .slice(0, 24);
}

function approvalsOf(home: string): WorkspaceApprovals<'hook'> {
  return new WorkspaceApprovals(path.join(home, APPROVALS_FILE), 'hook');
}

/** A hook is approved by what it is: its event, matcher and command (its fingerprint adds its limits). */
function approvalName(hook: HookCommand): string {
  return `${hook.event}|${hook.matcher}|${hook.command}`;
}

function recordOf(hooks: SessionHooks, outcome: HookOutcome, run: HookRun, scope: HookScope): HookRanEvent {
  const { hook } = outcome;
  const cut =
    run.cut.stdout + run.cut.stderr > 0 || run.stdout.length > RECORDED_OUTPUT || run.stderr.length > RECORDED_OUTPUT;
  return {
    type: 'hook_ran',
    hook_event: hook.event,
    command: hook.command,
    source: hooks.where(hook),
    ...(scope.turnId ? { turn_id: scope.turnId } : {}),
    ...(scope.callId ? { call_id: scope.callId } : {}),
    decision: outcome.decision,
    ...(outcome.reason ? { reason: outcome.reason } : {}),
    ...(outcome.context ? { context: outcome.context } : {}),
    status: run.status,
    exit_code: run.exitCode,
    duration_ms: run.durationMs,
    stdout: run.stdout.slice(-RECORDED_OUTPUT),
    stderr: run.stderr.slice(-RECORDED_OUTPUT),
    ...(cut ? { output_cut: true as const } : {}),
    ...(outcome.notice ? { notice: outcome.notice } : {}),
  };
}
