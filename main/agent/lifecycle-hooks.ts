import type { ChatMessage } from '../model/types.ts';
import { hookCommandLabel, type HookEventName } from '../../protocol/hooks.ts';
import type { HookOutcome, HookScope, SessionHooks } from '../tools/hooks/session-hooks.ts';
import type { InstructionMessage } from './instructions.ts';

// The hooks of a session's moments other than a call's: SessionStart (the first turn of this
// opening), UserPromptSubmit (a prompt before the model sees it: block it, or add context), Stop
// (the model is about to finish: block it with a reason it reads, "tests are failing"), PreCompact,
// Notification (the session waits for the person), SubagentStop (a nested session ended). What a
// hook adds for the model is a context message, written to the log before the model gets it, so
// replay and resume send the same without running the hook again.

/** How many times in a row Stop hooks may send the model back to work before the turn ends anyway. */
export const MAX_STOP_BLOCKS = 3;

export type LifecycleScope = Omit<HookScope, 'signal' | 'callId' | 'subjects' | 'turnId'>;

export class LifecycleHooks {
  private readonly hooks: SessionHooks;
  private readonly scope: LifecycleScope;
  /** `startup` for a new session, `resume` for a reopened one; null once its SessionStart ran. */
  private startSource: 'startup' | 'resume' | null;
  private stopBlocks = 0;

  constructor(hooks: SessionHooks, scope: LifecycleScope, resumed: boolean) {
    this.hooks = hooks;
    this.scope = scope;
    this.startSource = resumed ? 'resume' : 'startup';
  }

  /** SessionStart, once per opening, at its first turn: what its hooks add for the model. */
  async sessionStart(turnId: string, signal: AbortSignal): Promise<InstructionMessage[]> {
    const source = this.startSource;
    if (source === null) return [];
    this.startSource = null;
    const outcomes = await this.run('SessionStart', { source }, turnId, signal, [source]);
    return contextMessages('SessionStart', outcomes);
  }

  /** UserPromptSubmit: a block's reason (the prompt is not sent), or what its hooks add. */
  async promptSubmitted(
    turnId: string,
    prompt: string,
    signal: AbortSignal,
  ): Promise<{ blocked: string } | { context: InstructionMessage[] }> {
    this.stopBlocks = 0;
    const outcomes = await this.run('UserPromptSubmit', { prompt }, turnId, signal);
    const blocked = outcomes.find((outcome) => outcome.decision === 'block');
    if (blocked)
      return {
        blocked: `The UserPromptSubmit hook \`${hookCommandLabel(blocked.hook.command)}\` blocked this message: ${blocked.reason ?? 'no reason given'}`,
      };
    return { context: contextMessages('UserPromptSubmit', outcomes) };
  }

  /**
   * Stop: the model finished its answer. A hook that blocks sends it back to work with its reason,
   * at most MAX_STOP_BLOCKS times in a row (`stop_hook_active` tells the hook it already did); null:
   * the turn ends.
   */
  async beforeStop(turnId: string, signal: AbortSignal): Promise<InstructionMessage[] | null> {
    if (this.hooks.matching('Stop').length === 0 || this.stopBlocks >= MAX_STOP_BLOCKS) return null;
    const outcomes = await this.run('Stop', { stop_hook_active: this.stopBlocks > 0 }, turnId, signal);
    const blocks = outcomes.filter((outcome) => outcome.decision === 'block');
    if (blocks.length === 0 || signal.aborted) {
      this.stopBlocks = 0;
      return null;
    }
    this.stopBlocks += 1;
    return blocks.map((outcome) => ({
      source: `Stop hook: ${hookCommandLabel(outcome.hook.command)}`,
      text: hookDocument(
        'Stop',
        outcome.hook.command,
        `You were about to stop, and a Stop hook blocked it: ${outcome.reason ?? ''}\nGo on with the work it names before you finish.`,
      ),
      change: 'loaded' as const,
    }));
  }

  /** PreCompact: told before the context is compacted (its output is recorded; it cannot stop it). */
  async preCompact(
    trigger: string,
    focus: string | undefined,
    turnId: string | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    await this.run('PreCompact', { trigger, custom_instructions: focus ?? '' }, turnId, signal, [trigger]);
  }

  /** Notification: the session waits for the person (a question about a call). */
  async notify(message: string, turnId: string | undefined): Promise<void> {
    await this.run('Notification', { message }, turnId, new AbortController().signal);
  }

  /** SubagentStop: a nested session this one started has ended. */
  async subagentStopped(
    input: Record<string, unknown>,
    turnId: string | undefined,
    signal: AbortSignal,
  ): Promise<HookOutcome[]> {
    return this.run('SubagentStop', { stop_hook_active: false, ...input }, turnId, signal);
  }

  private run(
    event: HookEventName,
    input: Record<string, unknown>,
    turnId: string | undefined,
    signal: AbortSignal,
    subjects?: readonly string[],
  ): Promise<HookOutcome[]> {
    return this.hooks.run(event, input, {
      ...this.scope,
      signal,
      ...(turnId ? { turnId } : {}),
      ...(subjects ? { subjects } : {}),
    });
  }
}

/** What each hook added for the model, as a context message naming it. */
function contextMessages(event: HookEventName, outcomes: readonly HookOutcome[]): InstructionMessage[] {
  return outcomes.flatMap((outcome) =>
    outcome.context
      ? [
          {
            source: `${event} hook: ${hookCommandLabel(outcome.hook.command)}`,
            text: hookDocument(event, outcome.hook.command, outcome.context),
            change: 'loaded' as const,
          },
        ]
      : [],
  );
}

/** The XML document the model receives: the hook's words as it printed them, named by event and command. */
function hookDocument(event: HookEventName, command: string, body: string): string {
  const attribute = (value: string): string =>
    value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('\n', ' ');
  const text = body.replaceAll('&', '&amp;').replaceAll('<', '&lt;').trim();
  return `<hook_context event="${event}" command="${attribute(command)}">\n${text}\n</hook_context>`;
}

/** What a turn's start reads of project instructions (instructions.ts), with the hooks' context added. */
export interface TurnInstructions {
  atTurnStart(context: readonly ChatMessage[]): Promise<InstructionMessage[]>;
  forCalls(calls: readonly { args: unknown }[]): Promise<InstructionMessage[]>;
}

/**
 * A turn's start with the hooks: SessionStart (the first time) and UserPromptSubmit on the prompt,
 * their context sent after the project instructions; or the block that keeps the prompt from the model.
 */
export async function hookedTurnStart(
  lifecycle: LifecycleHooks,
  instructions: TurnInstructions,
  turnId: string,
  prompt: string,
  signal: AbortSignal,
): Promise<{ blocked: string } | { instructions: TurnInstructions }> {
  const started = await lifecycle.sessionStart(turnId, signal);
  const submitted = await lifecycle.promptSubmitted(turnId, prompt, signal);
  if ('blocked' in submitted) return submitted;
  const added = [...started, ...submitted.context];
  return {
    instructions: {
      atTurnStart: async (context) => [...(await instructions.atTurnStart(context)), ...added],
      forCalls: (calls) => instructions.forCalls(calls),
    },
  };
}
