import { errorMessage } from '../../protocol/errors.ts';
import type { Result } from '../../protocol/api.ts';

// The answers every panel handler builds: a value, an error a person can act on, or the error a
// task threw, turned into a message rather than a rejected request.

export type Refusal = { ok: false; error: string };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** What a request about the open session answers before any session exists. */
export function noSession(): Refusal {
  return { ok: false, error: 'No session is open: send a message to start one.' };
}

export async function attempt<T>(task: () => Promise<T>): Promise<Result<T>> {
  try {
    return ok(await task());
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
}
