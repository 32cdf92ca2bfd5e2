import type { StatusEvent } from '../../protocol/events.ts';
import { queueOf, type QueueState } from '../../protocol/queue.ts';
import { readSessionImage, type StoredImage } from '../session/session-images.ts';
import type { UserInput } from './turn.ts';

/**
 * The messages a reopened session still had waiting, held: nothing goes to the model until the
 * person sends them (a reopened session runs no turn by itself). Their images' bytes are read back from the session's folder; one that is
 * missing is left out of its message (the rest of the message still goes).
 */
export async function reopenedQueue(
  events: readonly StatusEvent[],
  sessionDir: string,
): Promise<{ state: QueueState; inputs: Map<string, UserInput> }> {
  // A steer's turn is over: it waits as the next turn, as after Stop.
  const left = queueOf(events);
  const items = left.items.map((item) => ({ ...item, mode: 'next' as const }));
  const inputs = new Map<string, UserInput>();
  for (const item of items) {
    const images: StoredImage[] = [];
    for (const image of item.images ?? []) {
      const stored = await readSessionImage(sessionDir, image.sha256).catch(() => null);
      if (stored) images.push(stored);
    }
    inputs.set(item.id, {
      text: item.text,
      ...(item.mentions ? { mentions: item.mentions } : {}),
      ...(images.length > 0 ? { images } : {}),
    });
  }
  return { state: { items, held: items.length > 0 }, inputs };
}
