import type { Result } from '../../protocol/api.ts';
import { EMPTY_QUEUE, type SendMode, type QueueState } from '../../protocol/queue.ts';
import type { StatusSink } from '../status/sink.ts';
import type { SessionHistory } from './agent-session-options.ts';
import { MessageQueue } from './message-queue.ts';
import type { InstructionMessage } from './instructions.ts';
import type { UserInput } from './turn.ts';

// A session's waiting list: what the person sends while a turn runs. A steer enters the running
// turn at its next safe point; a queued message waits to start the turn after it; Stop holds them
// all until the person sends them. The messages and their durable `queue` events are
// message-queue.ts; this is where a message goes, and what starts once a turn ends.

export type { SendMode } from '../../protocol/queue.ts';

export interface SendOutcome {
  /** The turn it started, or the running one it waits on ('' behind a held queue). */
  turn_id: string;
  queued: boolean;
  /** Its id among the waiting messages, when it waits. */
  queued_id?: string;
}

/** The session's turns as the waiting list sees them. */
export interface SessionTurns {
  /** The running turn's id; null when none runs. */
  running(): string | null;
  /** Starts a turn with these messages (as `reserved`, when given) and returns its id. */
  start(inputs: UserInput[], reserved?: string): string;
}

export class WaitingList {
  private readonly queue: MessageQueue;
  private readonly turns: SessionTurns;

  constructor(sink: StatusSink, reopened: SessionHistory['queue'], turns: SessionTurns) {
    this.queue = new MessageQueue(sink, reopened?.state ?? EMPTY_QUEUE, reopened?.inputs);
    this.turns = turns;
  }

  /** Starts a turn, or, while one runs, steers it or (`queue`) waits behind it, as a held queue does. */
  send(input: UserInput, mode?: SendMode): Result<SendOutcome> {
    const running = this.turns.running();
    // A queued message waits behind the running turn, or behind a held queue.
    const waits = mode === 'queue' && (running !== null || this.queue.size > 0);
    if (running !== null || waits) {
      const added = this.queue.add(input, waits ? 'next' : 'steer');
      if (!added.ok) return added;
      return { ok: true, value: { turn_id: running ?? '', queued: true, queued_id: added.value.id } };
    }
    return { ok: true, value: { turn_id: this.turns.start([input]), queued: false } };
  }

  /** Stop: while a turn runs, what waits is held. */
  stopping(): void {
    if (this.turns.running() !== null) this.queue.hold();
  }

  /** The messages waiting, and whether they are held. */
  state(): QueueState {
    return this.queue.state();
  }

  /** Resolves once the queue's last change is on disk (rejects with the write's failure). */
  saved(): Promise<void> {
    return this.queue.saved();
  }

  edit(id: string, text: string): Result<void> {
    return this.queue.edit(id, text);
  }

  remove(id: string): Result<void> {
    return this.queue.remove(id);
  }

  move(id: string, to: number): Result<void> {
    return this.queue.move(id, to);
  }

  /** Send now: a held queue goes out again, its first message as the next turn (at once when none runs). */
  sendNow(): Result<void> {
    if (this.queue.size === 0) return { ok: false, error: 'No message is waiting.' };
    this.queue.release();
    if (this.turns.running() === null) this.startNext();
    return { ok: true, value: undefined };
  }

  /** Holds the waiting messages: none goes out until `sendNow`. */
  hold(): Result<void> {
    this.queue.hold();
    return { ok: true, value: undefined };
  }

  /** The steers for the running turn's safe point, marked as steers. */
  steers(): UserInput[] {
    return this.queue.takeSteers().map((input) => ({ ...input, steer: true }));
  }

  /**
   * A steer, with its hooks (UserPromptSubmit) as a prompt has them: blocked, it is out of the saved
   * list too (it never reaches the model, and a reopened session does not offer it again).
   */
  async submitted(
    input: UserInput,
    hooks: (prompt: string) => Promise<{ blocked: string } | { context: InstructionMessage[] }>,
  ): Promise<{ blocked: string } | { context: InstructionMessage[] }> {
    const submitted = await hooks(input.text);
    if ('blocked' in submitted) this.queue.dropTaken();
    return submitted;
  }

  /** Messages taken for a turn its hooks blocked: out of the saved list too. */
  blocked(inputs: readonly UserInput[]): void {
    if (inputs.some((input) => input.queuedId !== undefined)) this.queue.dropTaken();
  }

  /**
   * Once a turn has ended: a steer that came as it ended, or the next queued message, starts the
   * next turn (as `reserved`, when given). False when nothing waits or the queue is held.
   */
  startNext(reserved?: string): boolean {
    const next = this.queue.takeNext();
    if (next.length === 0) return false;
    this.turns.start(next, reserved);
    return true;
  }
}
