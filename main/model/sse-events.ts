import { debuglog } from 'node:util';
import { isRecord } from '../../protocol/json.ts';
import type { ProviderAPI } from './providers.ts';

// Server-sent events the provider SDKs must not see. The APIs add event types over time (Anthropic
// documents that new ones may appear and must be ignored), and keep-alive pings may carry any data;
// the SDKs validate every event against the types they know and fail the whole step on the first
// they do not. So, on the bytes before the SDK parses them, whole events of a type this wire does
// not know are dropped (logged with NODE_DEBUG=aether), while events of a known type always pass,
// so a malformed one still fails loudly.

const debug = debuglog('aether');

export interface SseEvent {
  /** The `event:` field, when the event has one. */
  name: string | undefined;
  /** The `data:` lines joined with newlines. */
  data: string;
}

/** Whether the provider SDK should see this event. */
export type SseEventTest = (event: SseEvent) => boolean;

function jsonOf(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A wire that names every event (Anthropic's), by name or by the data's `type`; an event not in the
 * provider's list, `ping` among them (it only keeps the connection alive), is never passed on.
 */
function namedEventTest(names: readonly string[]): SseEventTest {
  const known = new Set(names);
  return (event) => {
    const json = event.name === undefined ? jsonOf(event.data) : undefined;
    const name = event.name ?? (isRecord(json) && typeof json.type === 'string' ? json.type : undefined);
    return name !== undefined && known.has(name);
  };
}

/**
 * The chat-completions wire sends unnamed events: chunks (`choices`), errors (`error`) and `[DONE]`.
 * A named event other than `message` or `error`, or JSON that is neither a chunk nor an error, is of
 * another kind. Data that is not JSON at all passes: it claims to be a chunk and cannot be read.
 */
function chatEventKnown(event: SseEvent): boolean {
  if (event.name !== undefined && event.name !== 'message' && event.name !== 'error') return false;
  const data = event.data.trim();
  if (data === '[DONE]') return true;
  const json = jsonOf(data);
  if (json === undefined) return true;
  return isRecord(json) && ('choices' in json || 'error' in json);
}

/** The test of the events a provider may send, from its record. */
export function knownEventTest(events: ProviderAPI['streamEvents']): SseEventTest {
  return events === 'chat-chunks' ? chatEventKnown : namedEventTest(events.named);
}

/**
 * Splits a byte stream into SSE events and keeps the ones `test` accepts, as text with the lines
 * they came with. Comment-only blocks (keep-alives) are dropped too: they carry nothing.
 */
export class SseEventFilter {
  private readonly test: SseEventTest;
  private readonly label: string;
  private readonly decoder = new TextDecoder();
  private readonly encoder = new TextEncoder();
  private pending = '';
  private lines: string[] = [];

  constructor(test: SseEventTest, label: string) {
    this.test = test;
    this.label = label;
  }

  /** The bytes to pass on for this chunk: whole events only; a partial event waits for the next chunk. */
  push(bytes: Uint8Array): Uint8Array {
    return this.take(this.decoder.decode(bytes, { stream: true }), false);
  }

  /** The stream ended: whatever is left, as one last event. */
  end(): Uint8Array {
    return this.take(this.decoder.decode(), true);
  }

  private take(text: string, final: boolean): Uint8Array {
    let buffer = this.pending + text;
    // A CR ending the chunk may be the first half of a CRLF: it waits for the next byte.
    const heldCr = !final && buffer.endsWith('\r');
    if (heldCr) buffer = buffer.slice(0, -1);
    const parts = buffer.split(/\r\n|\r|\n/);
    this.pending = (parts.pop() ?? '') + (heldCr ? '\r' : '');
    let out = '';
    for (const line of parts) {
      if (line === '') out += this.dispatch();
      else this.lines.push(line);
    }
    if (final) {
      if (this.pending !== '') this.lines.push(this.pending);
      this.pending = '';
      out += this.dispatch();
    }
    return this.encoder.encode(out);
  }

  private dispatch(): string {
    const lines = this.lines;
    this.lines = [];
    const fields = lines.filter((line) => !line.startsWith(':'));
    if (fields.length === 0) return '';
    const event = parseEvent(fields);
    if (this.test(event)) return `${fields.join('\n')}\n\n`;
    debug('%s: ignored a stream event of unknown type %s: %s', this.label, event.name ?? '(unnamed)', event.data);
    return '';
  }
}

function parseEvent(lines: string[]): SseEvent {
  let name: string | undefined;
  const data: string[] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const raw = colon < 0 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  return { name, data: data.join('\n') };
}
