import type { z } from 'zod';
import { echoPlainText as plainText, textEchoSchema, type EchoShape } from '../../protocol/echo.ts';
import type { ToolCallView } from '../store/transcript-types.ts';

// Reading a call's echo with the schema of its kind (protocol/echo.ts): the echo comes from a wire
// or a session file, so a view decodes it before it shows a field. A decoded echo is remembered per
// echo object, so a card re-rendering does not check it again.

const decoded = new WeakMap<object, Map<z.ZodType, unknown>>();

/** The echo decoded with `schema`, or null when it is absent or of another shape. */
export function decodeEcho<T>(echo: EchoShape | undefined, schema: z.ZodType<T>): T | null {
  if (echo === undefined) return null;
  let bySchema = decoded.get(echo);
  if (!bySchema) {
    bySchema = new Map();
    decoded.set(echo, bySchema);
  }
  if (!bySchema.has(schema)) {
    const parsed = schema.safeParse(echo);
    bySchema.set(schema, parsed.success ? parsed.data : null);
  }
  return bySchema.get(schema) as T | null;
}

/** The text of a `text` echo (a failure's message, a plain tool's output); '' for any other echo. */
export function echoText(call: Pick<ToolCallView, 'echo'>): string {
  return decodeEcho(call.echo, textEchoSchema)?.text ?? '';
}

/** What an error card says: the failure's text, or a sentence when the echo carries none. */
export function errorText(call: Pick<ToolCallView, 'echo'>): string {
  const text = echoText(call);
  return text !== '' ? text : 'The call failed without a message.';
}

/** The echo as plain text, as its kind reads (protocol/echo.ts): Copy transcript, the generic card. */
export function echoPlainText(echo: EchoShape | undefined): string {
  return plainText(echo, decodeEcho);
}
