import type { AgentEnding, AgentStatus } from '../../../protocol/agents.ts';
import type { StatusEvent } from '../../../protocol/events.ts';
import type { StatusSink } from '../../status/sink.ts';

// The parent's eye on a running child: the child session's sink, past its own log. It keeps what
// the card's live status shows (the current tool, steps, tokens, cost), the child's last words,
// the files its calls wrote (and the checkpoints around its other changing calls), and stops the child when it repeats itself or passes its budget.

export interface WatchLimits {
  /** The same calls this many steps in a row: stopped as looping. */
  repeatedSteps: number;
  tokens?: number;
  cost?: number;
}

export class ChildWatch implements StatusSink {
  steps = 0;
  inputTokens = 0;
  outputTokens = 0;
  cost: number | undefined;
  /** The child's newest text: its answer once it ended well, its last words otherwise. */
  lastWords = '';
  readonly changed = new Set<string>();
  /**
   * The checkpoints taken before the child's other calls that may change files (commands, Code
   * Mode, MCP tools): what they changed is read from the records around them once the child ended.
   */
  readonly spans: string[] = [];
  /** Why the watch stopped the child, if it did. */
  stoppedFor: Extract<AgentEnding, 'budget' | 'looping'> | null = null;
  /** The reason as the child's turn records it. */
  stopReason = '';
  private tool: string | undefined;
  private lastCalls = '';
  private repeats = 0;
  private readonly limits: WatchLimits;
  private readonly stop: (reason: string) => void;
  private readonly changedTo: (status: AgentStatus) => void;
  private readonly status: Pick<AgentStatus, 'agent' | 'started_at'> & { session: string };

  constructor(options: {
    agent: string;
    startedAt: string;
    limits: WatchLimits;
    /** Stops the child's turn (not awaited: the watch is called from inside it). */
    stop: (reason: string) => void;
    /** The live status changed. */
    report: (status: AgentStatus) => void;
  }) {
    this.limits = options.limits;
    this.stop = options.stop;
    this.changedTo = options.report;
    this.status = { agent: options.agent, started_at: options.startedAt, session: '' };
  }

  /** The child's session id, once it is open. */
  set session(id: string) {
    this.status.session = id;
  }

  emit(event: StatusEvent): void {
    switch (event.type) {
      case 'tool_started':
        this.tool = event.description?.title ?? event.name;
        return this.report();
      case 'tool_completed': {
        const echo = event.result;
        if (event.name === 'write_file' || event.name === 'patch_file') {
          // Its own echo names what it wrote; a failed one wrote nothing (a write lands whole or not at all).
          if (!event.is_error && typeof echo.path === 'string') this.changed.add(echo.path);
        } else if (echo.kind === 'agent' && Array.isArray(echo['changed'])) {
          for (const file of echo['changed']) if (typeof file === 'string') this.changed.add(file);
        } else if (event.checkpoint && !event.checkpoint.off) {
          this.spans.push(event.checkpoint.id);
        }
        this.tool = undefined;
        return this.report();
      }
      case 'assistant_message':
        this.steps += 1;
        if (event.text.trim() !== '') this.lastWords = event.text;
        return this.onCalls(
          JSON.stringify(event.tool_calls.map((call) => [call.name, call.args])),
          event.tool_calls.length,
        );
      case 'step_usage':
        this.inputTokens += event.usage.input_tokens;
        this.outputTokens += event.usage.output_tokens;
        if (event.cost !== undefined) this.cost = event.session_cost;
        this.checkBudget();
        return this.report();
      default:
        return;
    }
  }

  current(): AgentStatus {
    return {
      ...this.status,
      ...(this.tool ? { tool: this.tool } : {}),
      steps: this.steps,
      input_tokens: this.inputTokens,
      output_tokens: this.outputTokens,
      ...(this.cost !== undefined ? { cost: this.cost } : {}),
    };
  }

  private report(): void {
    this.changedTo(this.current());
  }

  private onCalls(signature: string, count: number): void {
    if (count === 0) {
      this.repeats = 0;
      this.lastCalls = '';
      return;
    }
    this.repeats = signature === this.lastCalls ? this.repeats + 1 : 1;
    this.lastCalls = signature;
    if (this.repeats >= this.limits.repeatedSteps && !this.stoppedFor) {
      this.halt(
        'looping',
        `Stopped: the agent made the same calls ${this.repeats} steps in a row without getting further.`,
      );
    }
  }

  private checkBudget(): void {
    if (this.stoppedFor) return;
    const tokens = this.inputTokens + this.outputTokens;
    if (this.limits.tokens !== undefined && tokens > this.limits.tokens)
      this.halt('budget', `Stopped: the agent used ${tokens} tokens, over its budget of ${this.limits.tokens}.`);
    else if (this.limits.cost !== undefined && this.cost !== undefined && this.cost > this.limits.cost)
      this.halt(
        'budget',
        `Stopped: the agent cost $${this.cost.toFixed(4)}, over its budget of $${this.limits.cost.toFixed(2)}.`,
      );
  }

  private halt(why: 'budget' | 'looping', reason: string): void {
    this.stoppedFor = why;
    this.stopReason = reason;
    this.stop(reason);
  }
}

/**
 * The children of one session's calls that ran side by side. Records around a child's command may
 * take in what a sibling wrote meanwhile: what each sibling's own writes name is theirs. A child
 * that ended is remembered until none runs any more.
 */
export class ChildRuns {
  private readonly running = new Set<ChildWatch>();
  private readonly ended = new Set<ChildWatch>();

  join(watch: ChildWatch): void {
    this.running.add(watch);
  }

  leave(watch: ChildWatch): void {
    this.running.delete(watch);
    this.ended.add(watch);
    if (this.running.size === 0) this.ended.clear();
  }

  /** The files the others wrote themselves. */
  writtenBesides(watch: ChildWatch): Set<string> {
    const others = [...this.running, ...this.ended].filter((other) => other !== watch);
    return new Set(others.flatMap((other) => [...other.changed]));
  }
}
