import { SseEventFilter, type SseEventTest } from './sse-events.ts';

// Watches one HTTP attempt of a model step at the byte level, underneath the SDK: whether the
// response started (retries stop there), whether bytes keep coming (stall), whether the whole
// request outlives its deadline (a server trickling keep-alives is never a stall), whether the
// stream's final event arrived, and whether the body broke off. The SDK sees an ordinary fetch
// whose body simply ends, without the events of types it does not know; the adapter asks the
// watch how it ended.

export type Fetch = typeof globalThis.fetch;

export class StallError extends Error {
  override name = 'StallError';
}

export class DeadlineError extends Error {
  override name = 'DeadlineError';
}

export interface WireWatchOptions {
  fetch: Fetch;
  /** No bytes (or no response headers) for this long abandons the attempt. */
  stallTimeoutMs: number;
  /** The SSE line that ends a complete stream (`event: message_stop`, `data: [DONE]`). */
  terminalLine: string;
  /** The whole request, from sending it to the body's end, is abandoned after this long. */
  deadlineMs: number;
  /** Which events the SDK gets; the others are dropped before it parses them. */
  knownEvent: SseEventTest;
  /** Names the model in debug logs. */
  label: string;
}

/** The ids the APIs give each request (Anthropic `request-id`, OpenAI `x-request-id`), for support. */
export function requestIdOf(headers: { get(name: string): string | null }): string | undefined {
  return headers.get('request-id') ?? headers.get('x-request-id') ?? undefined;
}

/** An SSE line as `field:value`: the one space SSE allows after the colon is dropped, and a trailing CR. */
function sseLine(line: string): string {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  const colon = text.indexOf(':');
  if (colon <= 0) return text;
  const value = text.slice(colon + 1);
  return `${text.slice(0, colon)}:${value.startsWith(' ') ? value.slice(1) : value}`;
}

export class WireWatch {
  /** HTTP status of the response, once it arrived. */
  status: number | undefined;
  /** A 2xx response arrived: its body is the stream, and nothing is retried after this. */
  bodyStarted = false;
  stalled = false;
  /** The request's deadline passed before its body ended. */
  deadlineExceeded = false;
  /** The provider's id for this request, when its response named one. */
  requestId: string | undefined;
  /** The response's headers, once it arrived (its rate limits: rate-limits.ts). */
  headers: Headers | undefined;
  sawTerminal = false;
  /** The error the body broke off with (connection cut), if it did. */
  bodyError: unknown;
  bytes = 0;
  readonly fetch: Fetch;
  private readonly options: WireWatchOptions;
  private readonly terminal: string;
  private pendingLine = '';
  private readonly decoder = new TextDecoder();

  constructor(options: WireWatchOptions) {
    this.options = options;
    this.terminal = sseLine(options.terminalLine);
    this.fetch = (input, init) => this.watch(input, init);
  }

  private scan(bytes: Uint8Array): void {
    const lines = (this.pendingLine + this.decoder.decode(bytes, { stream: true })).split('\n');
    this.pendingLine = lines.pop() ?? '';
    for (const line of lines) {
      if (sseLine(line) === this.terminal) this.sawTerminal = true;
    }
  }

  private async watch(input: Parameters<Fetch>[0], init: Parameters<Fetch>[1]): Promise<Response> {
    const stop = new AbortController();
    const signal = init?.signal ? AbortSignal.any([init.signal, stop.signal]) : stop.signal;
    const ms = this.options.stallTimeoutMs;
    const armStall = (): NodeJS.Timeout =>
      setTimeout(() => {
        this.stalled = true;
        stop.abort(new StallError(`no data for ${ms} ms`));
      }, ms);
    const deadline = setTimeout(() => {
      this.deadlineExceeded = true;
      stop.abort(new DeadlineError(`the request took longer than ${this.options.deadlineMs} ms`));
    }, this.options.deadlineMs);

    let timer = armStall();
    let response: Response;
    try {
      response = await this.options.fetch(input, { ...init, signal });
    } catch (error) {
      clearTimeout(deadline);
      throw error;
    } finally {
      clearTimeout(timer);
    }
    this.status = response.status;
    this.requestId = requestIdOf(response.headers);
    this.headers = response.headers;
    if (!response.ok || response.body === null) {
      clearTimeout(deadline);
      return response;
    }
    this.bodyStarted = true;

    const reader = response.body.getReader();
    const filter = new SseEventFilter(this.options.knownEvent, this.options.label);
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          // Until whole events the SDK should see have arrived, or the body ends.
          for (;;) {
            // The clock runs only while someone waits for bytes: a slow consumer is not a stall.
            timer = armStall();
            const { done, value } = await reader.read();
            clearTimeout(timer);
            if (done) {
              clearTimeout(deadline);
              this.scan(new Uint8Array());
              if (sseLine(this.pendingLine) === this.terminal) this.sawTerminal = true;
              const rest = filter.end();
              if (rest.byteLength > 0) controller.enqueue(rest);
              controller.close();
              return;
            }
            this.bytes += value.byteLength;
            this.scan(value);
            const passed = filter.push(value);
            if (passed.byteLength > 0) {
              controller.enqueue(passed);
              return;
            }
          }
        } catch (error) {
          clearTimeout(deadline);
          if (init?.signal?.aborted === true) {
            controller.error(error);
            return;
          }
          // A broken body ends the SDK's stream cleanly instead of erroring it: an errored stream
          // drops the parts still queued in the SDK's pipeline, and text that arrived must reach the
          // person. The adapter reads the cause from this watch once the stream is drained.
          if (!this.stalled && !this.deadlineExceeded) this.bodyError = error;
          controller.close();
        } finally {
          clearTimeout(timer);
        }
      },
      cancel: (reason) => {
        clearTimeout(deadline);
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
}
