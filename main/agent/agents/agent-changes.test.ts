import { expect, it } from 'vitest';
import type { ChangedFile } from '../../../protocol/changes.ts';
import { reviewText } from './agent-changes.ts';

// What the review agent's task carries of a turn's changes: every file named, their diffs only up
// to the bound, and the ones left out named so the reviewer reads them itself.

function file(path: string, diff: string, extra: Partial<ChangedFile> = {}): ChangedFile {
  return { path, status: 'modified', added: 1, removed: 1, diff, note: null, not_restorable: false, ...extra };
}

it('keeps the diffs that fit under the bound, names the rest to be read, and lists every file', () => {
  const small = file('a.ts', '--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-old\n+new\n');
  const big = file('big.ts', `--- a/big.ts\n+++ b/big.ts\n${'+x\n'.repeat(400)}`, { added: 400, removed: 0 });
  const binary = file('logo.png', '', { note: 'binary file', added: 0, removed: 0, agents: ['general'] });
  const text = reviewText([small, big, binary], 200);
  expect(text).toContain('(3 files)');
  expect(text).toContain('- a.ts: modified, +1 −1');
  expect(text).toContain('- big.ts: modified, +400 −0');
  expect(text).toContain('- logo.png: modified (binary file) (by agent general)');
  expect(text).toContain('+new');
  expect(text).not.toContain('+x');
  expect(text).toContain('The diff of big.ts is left out');
  expect(text).toContain('read it with read_file');
});
