import { uiPreview } from '../main/status/preview.ts';
import { compare, time } from './measure.ts';

// uiPreview of a 50 MB result against the naive route: serialise everything, then cut.

function naivePreview(result: unknown, limit = 4000): string {
  const text = typeof result === 'string' ? result : JSON.stringify(result);
  return text.length > limit ? `${text.slice(0, limit - 3)}...` : text;
}

export async function run(): Promise<void> {
  const rows = Array.from({ length: 480_000 }, (_, index) => ({
    path: `src/module-${index}/file.ts`,
    line: index,
    text: `match number ${index} in a long line of source`,
  }));
  const objectResult = { matches: rows };
  const objectBytes = JSON.stringify(objectResult).length;

  if (uiPreview(objectResult) !== naivePreview(objectResult))
    throw new Error('uiPreview and the baseline disagree on the object result');

  console.log(`uiPreview, 4000-character echo`);
  const ours = await time(7, () => uiPreview(objectResult));
  const naive = await time(7, () => naivePreview(objectResult));
  console.log(
    `  ${compare(`object result, ${(objectBytes / 1e6).toFixed(1)} MB of JSON`, ours, naive, 'serialise-then-cut')}`,
  );
}
