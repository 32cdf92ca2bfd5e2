// What a fetched body is, from its Content-Type (and its first bytes when the server names none):
// an HTML page made readable, a text document passed through as it came, or binary, which is
// refused with its type. And a text body decoded in the charset it names.

export type PageKind = 'html' | 'text' | 'binary';

/** `text/html; charset=UTF-8` → `text/html`; '' without a type. */
export function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** The charset parameter of a Content-Type, or null. */
export function charsetOf(contentType: string): string | null {
  const found = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return found?.[1] ?? null;
}

const TEXT_APPLICATIONS: ReadonlySet<string> = new Set([
  'application/json',
  'application/ld+json',
  'application/x-ndjson',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/x-sh',
  'application/sql',
  'application/graphql',
  'application/x-httpd-php',
]);

/** The kind of a body by its media type; one without a type is judged by its first bytes. */
export function pageKind(type: string, body?: Uint8Array): PageKind {
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type.startsWith('text/') || TEXT_APPLICATIONS.has(type) || /\+(json|xml|yaml)$/.test(type)) return 'text';
  if (type !== '') return 'binary';
  if (!body) return 'text';
  const head = body.subarray(0, 4096);
  if (head.includes(0)) return 'binary';
  return /^\s*(<!doctype html|<html|<head|<body)/i.test(Buffer.from(head).toString('latin1')) ? 'html' : 'text';
}

/** Why a response is not read, before its body is: a type that is neither a page nor text. */
export function binaryRefusal(contentType: string, url: URL): string | null {
  const type = mediaType(contentType);
  if (pageKind(type) !== 'binary') return null;
  return `${url.href} is ${type}, which web_fetch does not read: it reads web pages and text (HTML, plain text, Markdown, JSON, XML). Nothing was downloaded.`;
}

/** A text body in the charset its type names (UTF-8 without one, or for a name no decoder knows). */
export function decodeText(body: Uint8Array, charset: string | null): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
