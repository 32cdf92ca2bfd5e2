// The one way a caught value becomes text or an Error. Anything can be thrown (a string, an object
// from a worker), so callers never assume an Error.

/** The message of an Error, or the thrown value as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The thrown value as an Error, wrapping anything that is not one. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
