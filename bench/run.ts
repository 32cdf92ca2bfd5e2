// `npm run bench`: every bench, each printing its figures next to a baseline measured in the same run.
import { existsSync } from 'node:fs';

const benches = [
  './ui-preview.ts',
  './patch-file.ts',
  './exec-progress.ts',
  './run-code.ts',
  './session-log.ts',
  './session-open.ts',
  './search-files.ts',
  './confined-open.ts',
  './checkpoints.ts',
  './first-write.ts',
  './serve-memory.ts',
  './mcp-call.ts',
  './ssh-exec.ts',
  './sandbox-exec.ts',
  './tool-hooks.ts',
  './cold-start.ts',
  './context-aging.ts',
  './prompt-cache.ts',
  './token-estimate.ts',
  './mention-index.ts',
  './card-rendering.ts',
  './long-run.ts',
  './agents.ts',
  './processes.ts',
  './resume.ts',
];

// `node bench/run.ts long-run` runs the rows whose file is named so (several names, several rows);
// a number after a name is that bench's to read (long-run: how many calls).
const named = process.argv.slice(2).filter((arg) => !/^\d+$/.test(arg));
const chosen = named.length === 0 ? benches : benches.filter((bench) => named.includes(bench.slice(2, -3)));
if (chosen.length === 0) throw new Error(`No bench named ${named.join(', ')}; the benches are ${benches.join(', ')}.`);

for (const bench of chosen) {
  if (!existsSync(new URL(bench, import.meta.url))) continue;
  const module = (await import(bench)) as { run: () => Promise<void> };
  await module.run();
  console.log('');
}
