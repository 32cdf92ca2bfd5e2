import type { StatusEvent } from '../../protocol/events.ts';
import { countMessageByLength } from '../model/token-estimate.ts';
import type { ChatMessage } from '../model/types.ts';
import { historyEvent } from '../session/context.ts';
import { loadSessionImages } from '../session/session-images.ts';
import { ageToolResults } from './aging.ts';

// A resumed session's model context is built when it is first needed (a turn, a compaction, a
// look at it), not while the session opens: a long session's panel gets its newest page without
// waiting for it. It is built from the same records by the same rules (session/context.ts), so the
// model receives exactly what it would have received had it been built at once. Its messages, and
// the aged forms the requests send of them, are counted by their length for the context meter and
// compaction, not by the tokenizer: that took seconds on a long session before its first request,
// and the provider's figure after the first step scales the estimate (context-count.ts). Messages
// added after the resume are counted by the tokenizer.

export class ModelContext {
  /** The session's messages: this array is the one the turn and the compactor change in place. */
  readonly messages: ChatMessage[];
  private build: (() => ChatMessage[]) | null;
  private readonly sessionDir: string;
  private images: Promise<void> = Promise.resolve();

  constructor(messages: ChatMessage[], build: (() => ChatMessage[]) | null, sessionDir: string) {
    this.messages = messages;
    this.build = build;
    this.sessionDir = sessionDir;
  }

  /** The messages, built now if they were not yet (the bytes of their images load meanwhile). */
  now(): ChatMessage[] {
    const build = this.build;
    if (build === null) return this.messages;
    this.build = null;
    const built = build();
    // Pushed one by one: a long session's tens of thousands of messages overflow a spread's arguments.
    for (const message of built) this.messages.push(message);
    for (const message of built) countMessageByLength(message);
    for (const message of ageToolResults(built)) countMessageByLength(message);
    this.images = loadSessionImages(built, this.sessionDir);
    return this.messages;
  }

  /** The messages with their images' bytes loaded, for a model request. */
  async loaded(): Promise<ChatMessage[]> {
    this.now();
    await this.images;
    return this.messages;
  }
}

/**
 * A replayed session's context, none yet, and what builds it later, holding only the events it is
 * made of; those and the usage steps (the session's cost so far) are all a resumed session reads of
 * its history, so the other events (tool starts and results: most of a long session) are not kept.
 */
export function contextLater(replay: {
  events: readonly StatusEvent[];
  history: StatusEvent[] | null;
  contextOf: (events: readonly StatusEvent[]) => ChatMessage[];
}): { messages: ChatMessage[]; events: StatusEvent[]; buildContext: () => ChatMessage[] } {
  const { contextOf } = replay;
  const events = replay.history ?? replay.events.filter(historyEvent);
  return { messages: [], events, buildContext: () => contextOf(events) };
}
