import { randomUUID } from 'node:crypto';
import type { Result } from '../../protocol/api.ts';
import { QUEUE_LIMIT, type QueuedMessage, type QueueMode, type QueueState } from '../../protocol/queue.ts';
import type { StatusSink } from '../status/sink.ts';
import type { UserInput } from './turn.ts';

// What the person sent while a turn ran, until it is delivered (protocol/queue.ts). Each change is
// written whole as a `queue` event before the next change is made, in the order they were made; a
// message leaves the list when its user_message (naming its id) is written, so a crash between the
// two can neither lose it nor send it twice.

/** A message taken from the queue for delivery: its user_message names `queuedId`. */
export type DeliveredInput = UserInput & { queuedId: string };

export class MessageQueue {
  private items: QueuedMessage[];
  private held: boolean;
  /** The inputs as sent, with their images' bytes, by id. */
  private readonly inputs = new Map<string, UserInput>();
  private readonly sink: StatusSink;
  private written: Promise<void> = Promise.resolve();

  constructor(sink: StatusSink, initial: QueueState, inputs: ReadonlyMap<string, UserInput> = new Map()) {
    this.sink = sink;
    this.items = [...initial.items];
    this.held = initial.held;
    for (const [id, input] of inputs) this.inputs.set(id, input);
  }

  state(): QueueState {
    return { items: this.items.map((item) => ({ ...item })), held: this.held };
  }

  get size(): number {
    return this.items.length;
  }

  get isHeld(): boolean {
    return this.held;
  }

  /** Resolves once every change made so far is on disk; rejects with the write's failure. */
  saved(): Promise<void> {
    return this.written;
  }

  add(input: UserInput, mode: QueueMode): Result<QueuedMessage> {
    if (this.items.length >= QUEUE_LIMIT) {
      return {
        ok: false,
        error: `${QUEUE_LIMIT} messages are already waiting. Remove or send some of them before adding another.`,
      };
    }
    const item: QueuedMessage = {
      id: `queued-${randomUUID()}`,
      text: input.text,
      mode,
      ...(input.mentions && input.mentions.length > 0 ? { mentions: [...input.mentions] } : {}),
      ...(input.images && input.images.length > 0
        ? { images: input.images.map(({ sha256, media_type, bytes }) => ({ sha256, media_type, bytes })) }
        : {}),
    };
    this.inputs.set(item.id, input);
    this.items.push(item);
    this.write();
    return { ok: true, value: item };
  }

  /** A new text for a message still waiting; its mentions and images stay. */
  edit(id: string, text: string): Result<void> {
    if (text.trim().length === 0) {
      return { ok: false, error: 'A waiting message cannot be empty. Remove it instead.' };
    }
    const item = this.items.find((entry) => entry.id === id);
    if (!item) return gone();
    item.text = text;
    const input = this.inputs.get(id);
    if (input) this.inputs.set(id, { ...input, text });
    this.write();
    return { ok: true, value: undefined };
  }

  remove(id: string): Result<void> {
    const index = this.items.findIndex((entry) => entry.id === id);
    if (index === -1) return gone();
    this.items.splice(index, 1);
    this.inputs.delete(id);
    this.write();
    return { ok: true, value: undefined };
  }

  /** Moves a waiting message to `to` (0 is first; past the end, last). */
  move(id: string, to: number): Result<void> {
    const index = this.items.findIndex((entry) => entry.id === id);
    if (index === -1) return gone();
    const [item] = this.items.splice(index, 1);
    const place = Math.max(0, Math.min(Math.trunc(to), this.items.length));
    this.items.splice(place, 0, item!);
    this.write();
    return { ok: true, value: undefined };
  }

  /** Stop: steers not yet delivered wait as queued messages, and nothing goes out until `release`. */
  hold(): void {
    if (this.held && this.items.every((item) => item.mode === 'next')) return;
    for (const item of this.items) item.mode = 'next';
    this.held = true;
    if (this.items.length > 0) this.write();
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    this.write();
  }

  /** The steers waiting, in order, for the running turn's next safe point. */
  takeSteers(): DeliveredInput[] {
    if (this.held) return [];
    const steers = this.items.filter((item) => item.mode === 'steer');
    return this.take(steers);
  }

  /**
   * What starts the next turn once one ends: steers that came too late for it, all together, or
   * else the first queued message. Nothing while the queue is held.
   */
  takeNext(): DeliveredInput[] {
    if (this.held || this.items.length === 0) return [];
    const steers = this.items.filter((item) => item.mode === 'steer');
    return this.take(steers.length > 0 ? steers : this.items.slice(0, 1));
  }

  /** Messages taken that will not be delivered (a hook blocked them): the saved list loses them too. */
  dropTaken(): void {
    this.write();
  }

  private take(taken: readonly QueuedMessage[]): DeliveredInput[] {
    const ids = new Set(taken.map((item) => item.id));
    this.items = this.items.filter((item) => !ids.has(item.id));
    return taken.map((item) => {
      const input = this.inputs.get(item.id) ?? inputOf(item);
      this.inputs.delete(item.id);
      return { ...input, text: item.text, queuedId: item.id };
    });
  }

  private write(): void {
    const event = {
      type: 'queue' as const,
      items: this.items.map((item) => ({ ...item })),
      ...(this.held ? { held: true as const } : {}),
    };
    const written = Promise.resolve(this.sink.emit(event));
    const previous = this.written.catch(() => undefined);
    this.written = previous.then(() => written);
    this.written.catch((error: unknown) => {
      console.error(`Could not save the waiting messages: ${(error as Error).message}`);
    });
  }
}

function inputOf(item: QueuedMessage): UserInput {
  return { text: item.text, ...(item.mentions ? { mentions: item.mentions } : {}) };
}

function gone(): Result<never> {
  return {
    ok: false,
    error: 'That message is not waiting any more: it has been sent or removed already.',
  };
}
