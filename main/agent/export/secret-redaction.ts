// Secrets an export must never contain: the values of environment variables whose names say they
// are secret (API keys, tokens, passwords…) and the keys the app keeps. Each is replaced wherever
// it appears — as written, JSON-escaped (tool arguments), HTML-escaped and URL-encoded — by a
// marker naming where it came from, never by any part of it: in every text of the session before
// it is drawn, and in the finished document again.

/** Names of variables whose values are secrets. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|PRIVATE|COOKIE/i;
/** Shorter values are too likely to be ordinary words, numbers or flags to replace wherever they appear. */
export const MIN_SECRET_CHARS = 8;

export interface Secret {
  /** Where it came from, for the marker: a variable's name, or `stored key`. */
  name: string;
  value: string;
}

/** The secrets of an environment: variables with a secret-sounding name and a value of 8 or more characters. */
export function environmentSecrets(env: NodeJS.ProcessEnv): Secret[] {
  const found: Secret[] = [];
  for (const [name, value] of Object.entries(env)) {
    const trimmed = value?.trim() ?? '';
    if (SECRET_NAME.test(name) && trimmed.length >= MIN_SECRET_CHARS) found.push({ name, value: trimmed });
  }
  return found;
}

export class SecretRedactor {
  /** Each spelling of each secret, longest first, so a secret inside another is never left half-replaced. */
  private readonly spellings: { text: string; marker: string }[];

  constructor(secrets: readonly Secret[]) {
    const seen = new Map<string, string>();
    for (const { name, value } of secrets) {
      if (value.length < MIN_SECRET_CHARS) continue;
      const marker = `[redacted: ${name}]`;
      for (const spelling of spellingsOf(value)) if (!seen.has(spelling)) seen.set(spelling, marker);
    }
    this.spellings = [...seen]
      .map(([text, marker]) => ({ text, marker }))
      .sort((a, b) => b.text.length - a.text.length);
  }

  /** Every string in a value (an event's fields, an echo) redacted; the rest as it is. */
  redactAll<T>(value: T): T {
    if (typeof value === 'string') return this.redact(value) as T;
    if (Array.isArray(value)) return value.map((item: unknown) => this.redactAll(item)) as T;
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.redactAll(item)])) as T;
    return value;
  }

  redact(text: string): string {
    let out = text;
    for (const { text: secret, marker } of this.spellings)
      if (out.includes(secret)) out = out.split(secret).join(marker);
    return out;
  }
}

function spellingsOf(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const html = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const htmlQuote = html.replace(/'/g, '&#39;');
  return [value, json, html, htmlQuote, encodeURIComponent(value)];
}
