import { readFile } from 'node:fs/promises';
import { AgentSession } from '../main/agent/agent-session.ts';
import { openedOf, peekSession } from '../main/session/catalog.ts';
import { parseRecord } from '../main/session/records.ts';
import { readSessionFile } from '../main/session/replay.ts';

// One open of a long session in a fresh process, the way the host does it: `old` reads the whole
// file into one string three times (the earlier panel service), sends every event in one message
// and keeps what it read; `new` peeks at the header and resumes the session as the host does (one
// streamed read, the newest page sent, the session kept as a resumed one holds itself);
// `every-event` is `new` also holding every event of the session, as a resumed session did; `floor`
// reads the file and parses each line as JSON, nothing else. Prints the time until the first message
// is ready (and the CPU time), the steps' times, its size, and the heap the process keeps afterwards.

// Node's start and this process's module imports are over here: not part of opening a session
// in a running host, so reported beside it.
const startup = performance.now();
const [mode = 'new', root = '', id = ''] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** The earlier replay's reading: the whole file as one string, split, every line parsed and checked. */
async function wholeFileRead(file: string): Promise<unknown[]> {
  const text = (await readFile(file)).toString('utf8');
  const lines = text.slice(0, text.lastIndexOf('\n')).split('\n');
  return lines.map((line) => parseRecord(line));
}

/** The session's model is never asked in this bench. */
const idle = {
  id: 'compat:bench',
  stream(): AsyncIterable<never> {
    throw new Error('No model step in this bench.');
  },
};

/** Memory once the collector is done: external memory is accounted some time after a collection. */
async function settled(): Promise<NodeJS.MemoryUsage> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 200));
  gc();
  return process.memoryUsage();
}

const before = await settled();
const cpuBefore = process.cpuUsage();
const start = performance.now();
let kept: unknown;
let message = '';
/** Milliseconds since `start` at each step of the open. */
const steps: Record<string, number> = {};
const step = (name: string) => (steps[name] = performance.now() - start);
const file = `${root}/${id}.jsonl`;
if (mode === 'floor') {
  // What a full read cannot do without: the bytes read and every line parsed as JSON, nothing kept.
  const bytes = await readFile(file);
  for (let from = 0, newline = bytes.indexOf(10); newline >= 0; newline = bytes.indexOf(10, from)) {
    JSON.parse(bytes.toString('utf8', from, newline));
    from = newline + 1;
  }
} else if (mode === 'old') {
  await wholeFileRead(file);
  await wholeFileRead(file);
  const replay = await readSessionFile(file);
  message = JSON.stringify(openedOf(replay));
  kept = replay;
} else {
  await peekSession(root, id);
  step('header read');
  const session = await AgentSession.resume({
    root,
    id,
    workspace: root,
    model: idle,
    sink: { emit: () => undefined },
  });
  step('resumed');
  message = JSON.stringify(session.reopenedPages!.first(session.reopened!));
  step('first message');
  // What the host keeps: the resumed session (its context, the page index, the log).
  kept = session;
  // Before, the resumed session also held every event it had when reopened (time not compared).
  if (mode === 'every-event') kept = { session, reopened: openedOf(await readSessionFile(file), { resumed: true }) };
}
const ms = performance.now() - start;
const cpu = process.cpuUsage(cpuBefore);
const after = await settled();
console.log(
  JSON.stringify({
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    startup,
    steps,
    bytes: Buffer.byteLength(message),
    heapBefore: before.heapUsed + before.external,
    heapAfter: after.heapUsed + after.external,
    kept: kept !== undefined,
  }),
);
