import { expect, it } from 'vitest';
import { countTextTokens, tokenizerLoaded, warmTokenizer } from './token-estimate.ts';

// The tokenizer's tables, warmed ahead of the count that needs them: they load after the caller's
// own work, in the background, once. A file of its own: the tables stay loaded for the process.

it('loads the tables after the caller has gone on, not while it waits', async () => {
  expect(tokenizerLoaded()).toBe(false);
  warmTokenizer(0);
  warmTokenizer(0);
  expect(tokenizerLoaded()).toBe(false);
  await expect.poll(() => tokenizerLoaded()).toBe(true);
  expect(countTextTokens(' hello hello')).toBe(2);
});
