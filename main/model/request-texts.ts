import { randomBytes } from 'node:crypto';
import type { Fetch } from './wire-watch.ts';

// A request's long texts (tool results, the person's messages, the system prompt) are most of its
// bytes, and the SDK serialises the whole request into one string at every step. Made of megabytes
// of text, that string lands in the heap's large-object space, where only a full collection frees
// it, and one non-Latin-1 character anywhere doubles its size. So the SDK is handed a short
// reference in place of each long text, and the fetch under it writes the request's bytes with
// each reference's JSON string replaced by the text's, serialised as the body streams out.
//
// A reference is a JSON string value of its own (`"<tag><index>;"`), so what a provider does with
// the text around it does not matter; a reference the body does not hold exactly once, as a whole
// string value, fails the request rather than send a reference to the model.

/** Texts shorter than this stay where they are: a reference would save little. */
export const REFERRED_MIN_CHARS = 128;

/** Random for each process, so that no text the model or a tool wrote holds a reference. */
const TAG = `aether-text-${randomBytes(8).toString('hex')}-`;
const END = ';"';
/** The body goes out in pieces of this size. */
const CHUNK_BYTES = 64 * 1024;

/** A text as it goes into a body: its JSON string and that string's UTF-8 length. */
interface Serialised {
  json: string;
  bytes: number;
}

/**
 * The serialised texts of an adapter's last request, kept for its next one. A session resends each
 * recent tool result at every step until it ages, and serialising it again each time made a string
 * as long as the text that outlived the request's upload (so the collector moved it to the old
 * generation, to be freed only by a full collection). Only the last request's texts are kept: what
 * this holds is bounded by one request. A text is found by its value, so a kept form is always the
 * text's own.
 */
export class SentTexts {
  private kept = new Map<string, Serialised>();
  private next = new Map<string, Serialised>();

  serialised(text: string): Serialised {
    let found = this.next.get(text) ?? this.kept.get(text);
    if (found === undefined) {
      const json = JSON.stringify(text);
      found = { json, bytes: Buffer.byteLength(json, 'utf8') };
    }
    this.next.set(text, found);
    return found;
  }

  /** A body was built: its texts are the ones the next request may reuse. */
  built(): void {
    this.kept = this.next;
    this.next = new Map();
  }
}

export class RequestTexts {
  private readonly texts: string[] = [];
  private readonly sent: SentTexts;

  /** `sent`: the adapter's texts from its last request, whose serialised forms this one reuses. */
  constructor(sent: SentTexts = new SentTexts()) {
    this.sent = sent;
  }

  /** `text`, or a reference to it when it is long. */
  refer(text: string): string {
    if (text.length < REFERRED_MIN_CHARS) return text;
    this.texts.push(text);
    return `${TAG}${this.texts.length - 1};`;
  }

  /**
   * The body as pieces: the SDK's own text between references, and the index of each text that
   * stands where its reference was.
   */
  private pieces(body: string): (string | number)[] {
    const pieces: (string | number)[] = [];
    const seen = new Uint8Array(this.texts.length);
    let from = 0;
    for (let at = body.indexOf(`"${TAG}`); at !== -1; at = body.indexOf(`"${TAG}`, from)) {
      const start = at + 1 + TAG.length;
      const end = body.indexOf(END, start);
      const index = end === -1 ? Number.NaN : Number(body.slice(start, end));
      if (!Number.isInteger(index) || this.texts[index] === undefined || seen[index] === 1 || body[at - 1] === '\\')
        throw new Error('A request text reference was not found whole in the request body: the request was not sent.');
      seen[index] = 1;
      pieces.push(body.slice(from, at), index);
      from = end + END.length;
    }
    if (seen.includes(0)) throw new Error('The request body lost a text it was built with: the request was not sent.');
    pieces.push(body.slice(from));
    return pieces;
  }

  private serialised(piece: string | number): Serialised {
    return typeof piece === 'string'
      ? { json: piece, bytes: Buffer.byteLength(piece, 'utf8') }
      : this.sent.serialised(this.texts[piece]!);
  }

  /**
   * A fetch that sends a string body with the texts spliced in, streamed in chunks with its length
   * stated (so the wire carries a plain body, not a chunked one).
   */
  fetch(fetch: Fetch): Fetch {
    if (this.texts.length === 0) return fetch;
    return (input, init) => {
      if (typeof init?.body !== 'string') return fetch(input, init);
      // Each text is serialised once (or was, for the last request): its JSON is measured for the
      // length, then encoded into the chunks.
      const parts = this.pieces(init.body).map((piece) => this.serialised(piece));
      this.sent.built();
      let length = 0;
      for (const part of parts) length += part.bytes;
      const chunks = encodedChunks(parts.map((part) => part.json));
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
      });
      const headers = new Headers(init.headers);
      headers.set('content-length', String(length));
      return fetch(input, { ...init, headers, body, duplex: 'half' } as RequestInit);
    };
  }
}

/**
 * The UTF-8 bytes of `parts` in chunks of `CHUNK_BYTES` (one may end a few bytes short, before a
 * character that does not fit), each part encoded straight into the chunk: no buffer per part.
 */
export function* encodedChunks(parts: readonly string[]): Generator<Uint8Array> {
  const encoder = new TextEncoder();
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  for (const part of parts) {
    let rest = part;
    for (;;) {
      const { read, written } = encoder.encodeInto(rest, chunk.subarray(used));
      used += written;
      if (read === rest.length) break;
      yield chunk.subarray(0, used);
      chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      used = 0;
      rest = rest.slice(read);
    }
    if (used === CHUNK_BYTES) {
      yield chunk;
      chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      used = 0;
    }
  }
  if (used > 0) yield chunk.subarray(0, used);
}
