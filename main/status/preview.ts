import { boundedJson } from './bounded-json.ts';

// The panel's route (the uiPreview contract, docs/contracts.md): a compact, cosmetic echo of a
// tool result. The model never reads it, so cutting it here loses nothing the model is owed.

const OMISSION = '...';

export interface PreviewOptions {
  name?: string | symbol;
  /**
   * More tools whose cards decode a structured echo, so their object passes through untouched
   * too: derived from the registered tools (those that declare an echo), never kept by hand. They
   * extend the name guard; `read_file` is always in it.
   */
  structured?: ReadonlySet<string>;
}

/** The name guard's own member: the read card decodes the result's structure whatever else is registered. */
const ALWAYS_STRUCTURED = 'read_file';

export function uiPreview(result: unknown, limit = 4000, options: PreviewOptions = {}): unknown {
  const name = options.name === undefined || options.name === null ? undefined : String(options.name.toString());
  if (name !== undefined && isPlainObject(result) && (name === ALWAYS_STRUCTURED || options.structured?.has(name)))
    return result;
  return truncate(previewText(result, limit), limit);
}

function previewText(result: unknown, limit: number): string {
  // One character past the limit is enough to know the text must be cut.
  const budget = limit + 1;
  if (isPlainObject(result)) {
    const content = result['content'];
    if (content !== undefined && content !== null && content !== false) return textOf(content, budget);
    return boundedJson(result, budget);
  }
  return textOf(result, budget);
}

function textOf(value: unknown, budget: number): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') {
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    return boundedJson(value, budget);
  }
  return String(value);
}

/** Rails' `truncate`: at most `limit` characters, the omission included; never half a surrogate pair. */
export function truncate(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const omission = OMISSION.slice(0, Math.max(0, limit));
  let stop = Math.max(0, limit - omission.length);
  if (stop > 0 && isHighSurrogate(text.charCodeAt(stop - 1))) stop -= 1;
  return text.slice(0, stop) + omission;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
