// Guards for values decoded from JSON (the wire, session files, tool arguments) before a schema
// or a reader looks at their fields.

/** A plain object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
