import { open } from 'node:fs/promises';
import { parseRecord } from './records.ts';

// The model a session's newest turn ran on, read from the end of its file: `aether run --resume`
// needs it before the session is opened, and reading every record of a long session for it (and
// keeping every event meanwhile) cost as much as the resume itself. Only the lines that hold the
// bytes `"turn_started"` are parsed; text that merely mentions the word is escaped in JSON
// (`\"turn_started\"`) and never matches.

const PATTERN = Buffer.from('"turn_started"');
const NEWLINE = 0x0a;
const CHUNK = 1 << 20;

/** The newest `turn_started` event's model, or null when the session has none (or no such file). */
export async function newestTurnModel(file: string, chunkBytes = CHUNK): Promise<string | null> {
  const handle = await open(file, 'r');
  try {
    let end = (await handle.stat()).size;
    // The start of a line whose beginning lies in bytes not read yet.
    let carry = Buffer.alloc(0);
    while (end > 0) {
      const start = Math.max(0, end - chunkBytes);
      const chunk = Buffer.allocUnsafe(end - start);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, start);
      const block = Buffer.concat([chunk.subarray(0, bytesRead), carry]);
      // Lines wholly in the block: after its first newline, or from its start at the file's start.
      const first = start === 0 ? -1 : block.indexOf(NEWLINE);
      end = start;
      if (start > 0 && first < 0) {
        // All of it is the middle of one long line.
        carry = block;
        continue;
      }
      for (let at = block.lastIndexOf(PATTERN); at > first;) {
        const lineStart = block.lastIndexOf(NEWLINE, at) + 1;
        const newline = block.indexOf(NEWLINE, at);
        const parsed = parseRecord(block.toString('utf8', lineStart, newline < 0 ? block.length : newline));
        if (parsed.ok && parsed.record.kind === 'event' && parsed.record.event.type === 'turn_started')
          return parsed.record.event.model;
        if (lineStart === 0) break;
        at = block.lastIndexOf(PATTERN, lineStart - 1);
      }
      carry = first < 0 ? Buffer.alloc(0) : block.subarray(0, first);
    }
    return null;
  } finally {
    await handle.close();
  }
}
