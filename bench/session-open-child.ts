import { readFile } from 'node:fs/promises';
import { openedOf, peekSession } from '../main/session/catalog.ts';
import { SessionPages } from '../main/session/event-pages.ts';
import { parseRecord } from '../main/session/records.ts';
import { readSessionFile } from '../main/session/replay.ts';

// One open of a long session in a fresh process, the way the host does it: `old` reads the whole
// file into one string three times (the earlier panel service) and sends every event in one message;
// `new` peeks at the header, reads the file once as a stream and sends the newest page. Prints the
// time until the first message is ready, its size, and the heap the process keeps afterwards.

const [mode = 'new', root = '', id = ''] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** The earlier replay's reading: the whole file as one string, split, every line parsed and checked. */
async function wholeFileRead(file: string): Promise<unknown[]> {
  const text = (await readFile(file)).toString('utf8');
  const lines = text.slice(0, text.lastIndexOf('\n')).split('\n');
  return lines.map((line) => parseRecord(line));
}

gc();
const before = process.memoryUsage();
const start = performance.now();
let kept: unknown;
let message: string;
const file = `${root}/${id}.jsonl`;
if (mode === 'old') {
  await wholeFileRead(file);
  await wholeFileRead(file);
  const replay = await readSessionFile(file);
  message = JSON.stringify(openedOf(replay));
  kept = replay;
} else {
  await peekSession(root, id);
  const replay = await readSessionFile(file);
  const pages = new SessionPages(replay);
  message = JSON.stringify(pages.first(openedOf(replay)));
  // What a resumed session keeps: its context and contents (the model's), the page index.
  kept = { context: replay.context, contents: replay.contents, pages };
}
const ms = performance.now() - start;
gc();
const after = process.memoryUsage();
console.log(
  JSON.stringify({
    ms,
    bytes: Buffer.byteLength(message),
    heapBefore: before.heapUsed + before.external,
    heapAfter: after.heapUsed + after.external,
    kept: kept !== undefined,
  }),
);
