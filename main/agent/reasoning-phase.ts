import type { StatusEvent } from '../../protocol/events.ts';

// The model's reasoning as the person sees it: each delta goes out live (reasoning_delta), and when
// the reasoning ends — the step's first text or call, its end, or its failure — the whole of it is
// one durable `reasoning` event with how long it took, for the Thinking block and for replay.
// Nothing is shown when effort is off: a provider that reasons anyway is still answered with its
// signed blocks (kept by the adapter), but the panel does not display them.

export interface ReasoningPhaseOptions {
  turnId: string;
  emit(event: StatusEvent): void | Promise<void>;
  /** False when effort is off. */
  shown: boolean;
  now?: () => number;
}

export class ReasoningPhase {
  private readonly options: ReasoningPhaseOptions;
  private readonly now: () => number;
  private text = '';
  private startedAt: number | null = null;

  constructor(options: ReasoningPhaseOptions) {
    this.options = options;
    this.now = options.now ?? (() => performance.now());
  }

  delta(text: string): void {
    if (!this.options.shown || text.length === 0) return;
    this.startedAt ??= this.now();
    this.text += text;
    Promise.resolve(this.options.emit({ type: 'reasoning_delta', turn_id: this.options.turnId, text })).catch(
      () => undefined,
    );
  }

  /** Closes the phase, if one is open: its durable event, once. */
  async end(): Promise<void> {
    if (this.startedAt === null) return;
    const event: StatusEvent = {
      type: 'reasoning',
      turn_id: this.options.turnId,
      text: this.text,
      duration_ms: Math.max(0, Math.round(this.now() - this.startedAt)),
    };
    this.text = '';
    this.startedAt = null;
    await this.options.emit(event);
  }
}
