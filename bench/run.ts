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
  './mcp-call.ts',
  './ssh-exec.ts',
  './cold-start.ts',
  './context-aging.ts',
  './token-estimate.ts',
  './mention-index.ts',
  './card-rendering.ts',
];

for (const bench of benches) {
  if (!existsSync(new URL(bench, import.meta.url))) continue;
  const module = (await import(bench)) as { run: () => Promise<void> };
  await module.run();
  console.log('');
}
