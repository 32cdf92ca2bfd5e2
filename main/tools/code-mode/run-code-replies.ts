import type { CallReply } from './run-code-protocol.ts';

// Replies to a program's nested calls, handed from the host to the sandbox worker through shared
// memory. A program whose every promise waits on the host has nothing to run, so the worker blocks
// in Atomics.wait instead of going back to its event loop for a message event: the host writes the
// reply into the shared buffer, rings the bell (a counter) and Atomics.notify wakes the worker.
// That saves the worker a message's event dispatch and the host a structured clone per call.
// A reply that does not fit in what is left of the buffer (a large result, or many replies the
// worker has not taken yet) goes as an ordinary message instead; the bell rings for it too and the
// worker takes it from its port with receiveMessageOnPort. worker.terminate() ends a worker blocked
// in Atomics.wait like one that is running (run-code-replies.test.ts).
//
// The buffer is written from the front: the host appends a frame at `tail`; the worker reads every
// frame up to the tail it loaded, and once it has read all of them it moves the tail back to the
// start, unless the host appended meanwhile (compare-and-swap on the tail, which the host also
// moves with a compare-and-swap and retries at the front when it lost). The host never blocks.

/** Int32 cells before the frames. */
const BELL = 0;
const TAIL = 1;
const HEADER_BYTES = 8;
/** A frame: payload length (u32), kind (u32), call id (f64), then the UTF-8 payload. */
const FRAME_HEAD = 16;
const KIND_NULL = 0;
const KIND_JSON = 1;
const KIND_ERROR = 2;

/** Room for replies in shared memory per program; larger ones go as messages. */
export const REPLY_BUFFER_BYTES = 256 * 1024;

/** Frames start on 8-byte boundaries, so the id can be read as a float64. */
function aligned(bytes: number): number {
  return (bytes + 7) & ~7;
}

function views(buffer: SharedArrayBuffer): { cells: Int32Array; bytes: Uint8Array; data: DataView } {
  return { cells: new Int32Array(buffer, 0, 2), bytes: new Uint8Array(buffer), data: new DataView(buffer) };
}

/** The host's end: writes replies and rings the bell. */
export class ReplyWriter {
  readonly shared: SharedArrayBuffer;
  private readonly cells: Int32Array;
  private readonly bytes: Uint8Array;
  private readonly data: DataView;
  private readonly encoder = new TextEncoder();

  constructor(bytes = REPLY_BUFFER_BYTES) {
    this.shared = new SharedArrayBuffer(HEADER_BYTES + bytes);
    ({ cells: this.cells, bytes: this.bytes, data: this.data } = views(this.shared));
    Atomics.store(this.cells, TAIL, HEADER_BYTES);
  }

  /**
   * Hands `reply` to the worker; `post` sends it as a message when it does not fit in the buffer.
   * The bell rings after either, so a worker waiting for it finds the reply.
   */
  send(reply: CallReply, post: (reply: CallReply) => void): void {
    if (!this.write(reply)) post(reply);
    Atomics.add(this.cells, BELL, 1);
    Atomics.notify(this.cells, BELL);
  }

  private write(reply: CallReply): boolean {
    const text = reply.ok ? reply.json : reply.message;
    const kind = reply.ok ? (text === null ? KIND_NULL : KIND_JSON) : KIND_ERROR;
    for (;;) {
      const tail = Atomics.load(this.cells, TAIL);
      const start = tail + FRAME_HEAD;
      const room = this.bytes.length - start;
      // Each UTF-16 unit takes at least one byte: a longer text cannot fit, and is not encoded at all.
      if (room < 0 || (text !== null && text.length > room)) return false;
      let written = 0;
      if (text !== null && text !== '') {
        const result = this.encoder.encodeInto(text, this.bytes.subarray(start));
        if (result.read < text.length) return false;
        written = result.written;
      }
      this.data.setUint32(tail, written, true);
      this.data.setUint32(tail + 4, kind, true);
      this.data.setFloat64(tail + 8, reply.id, true);
      const end = Math.min(this.bytes.length, aligned(start + written));
      // The worker moved the tail back to the front while this frame was written: write it there.
      if (Atomics.compareExchange(this.cells, TAIL, tail, end) === tail) return true;
    }
  }
}

/** The worker's end: takes the replies the host wrote or posted, waiting for the bell when there are none. */
export class ReplyReader {
  private readonly cells: Int32Array;
  private readonly data: DataView;
  private readonly text: Buffer;

  constructor(shared: SharedArrayBuffer) {
    ({ cells: this.cells, data: this.data } = views(shared));
    this.text = Buffer.from(shared);
  }

  /**
   * Every reply waiting now (frames first, then posted ones `receivePosted` gives); blocks until
   * the bell rings when there is none. Only the host's terminate() ends a wait that never ends.
   */
  take(receivePosted: () => CallReply | undefined): CallReply[] {
    for (;;) {
      const bell = Atomics.load(this.cells, BELL);
      const replies = this.takeFrames();
      for (let posted = receivePosted(); posted; posted = receivePosted()) replies.push(posted);
      if (replies.length > 0) return replies;
      // A reply written after the load above has changed the bell: the wait then returns at once.
      Atomics.wait(this.cells, BELL, bell);
    }
  }

  private takeFrames(): CallReply[] {
    const replies: CallReply[] = [];
    let at = HEADER_BYTES;
    for (;;) {
      const tail = Atomics.load(this.cells, TAIL);
      for (; at < tail;) {
        const length = this.data.getUint32(at, true);
        const kind = this.data.getUint32(at + 4, true);
        const id = this.data.getFloat64(at + 8, true);
        const start = at + FRAME_HEAD;
        const text = length === 0 ? '' : this.text.toString('utf8', start, start + length);
        if (kind === KIND_ERROR) replies.push({ type: 'reply', id, ok: false, message: text });
        else replies.push({ type: 'reply', id, ok: true, json: kind === KIND_NULL ? null : text });
        at = aligned(start + length);
      }
      // Everything up to `tail` is read: the host writes from the front again, unless it has
      // appended meanwhile (then those frames are read on from here).
      if (tail === HEADER_BYTES || Atomics.compareExchange(this.cells, TAIL, tail, HEADER_BYTES) === tail)
        return replies;
    }
  }
}
