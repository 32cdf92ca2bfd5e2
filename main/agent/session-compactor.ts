import type { Result } from '../../protocol/api.ts';
import { errorMessage } from '../../protocol/errors.ts';
import type { CompactionEvent, CompactionFailedEvent } from '../../protocol/events.ts';
import type { ChatMessage, ModelAdapter } from '../model/types.ts';
import type { StatusSink } from '../status/sink.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import { compactContext, compactionDue, type CompactionInput, type ContextBudget } from './compaction.ts';
import { toolSpecsOf } from './tool-specs.ts';

export interface SessionCompactorParts {
  /** The session's model right now: a model switched mid-session summarises from then on. */
  model: () => ModelAdapter;
  budget: ContextBudget;
  sink: StatusSink;
  /** The session's live context, replaced in place by a compaction. */
  messages: ChatMessage[];
  /** Read at each compaction: the request it measures and sends carries the tools as they are now. */
  registry: ToolRegistry;
  /** Told before each compaction (the PreCompact hooks). */
  beforeCompaction?(how: Pick<CompactionInput, 'trigger' | 'focus' | 'turnId'>, signal: AbortSignal): Promise<void>;
}

export type CompactionResult = Result<CompactionEvent | CompactionFailedEvent>;

/**
 * SessionCompactor — compacts one session's model context, on request (`run`) or by itself
 * before a model step once the next request would pass the threshold or the window (`ifDue`).
 * Scheduling (no compaction during a turn, queued messages after it) stays with AgentSession.
 */
export class SessionCompactor {
  private readonly parts: SessionCompactorParts;
  /** The context's length right after the last compaction attempt: no second try until it grows. */
  private compactedAt = -1;

  constructor(parts: SessionCompactorParts) {
    this.parts = parts;
  }

  /** Runs one compaction of the live context; a log that cannot be written leaves it as it was. */
  async run(
    signal: AbortSignal,
    how: Pick<CompactionInput, 'trigger' | 'focus' | 'notice' | 'turnId'>,
    system: string,
  ): Promise<CompactionResult> {
    const { budget, sink, messages, registry } = this.parts;
    const base = { model: this.parts.model(), budget, sink, messages, signal };
    try {
      await this.parts.beforeCompaction?.(how, signal);
      return {
        ok: true,
        value: await compactContext({ ...base, ...how, system, tools: toolSpecsOf(registry.list()) }),
      };
    } catch (error) {
      return {
        ok: false,
        error: `The compaction could not be saved, so the context is as it was: ${errorMessage(error)}`,
      };
    } finally {
      this.compactedAt = messages.length;
    }
  }

  /** Before each model step: compacts when the next request would pass the threshold or the window. */
  async ifDue(turnId: string, system: string, signal: AbortSignal): Promise<void> {
    const { budget, messages, registry } = this.parts;
    if (messages.length === this.compactedAt) return;
    const tools = toolSpecsOf(registry.list());
    const due = compactionDue(budget, this.parts.model(), { system, messages, tools });
    if (due) await this.run(signal, { ...due, turnId }, system);
  }
}
