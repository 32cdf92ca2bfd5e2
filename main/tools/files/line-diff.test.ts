import { describe, expect, it } from 'vitest';
import { changedBlocks, type Block } from './line-diff.ts';

// The changed stretches between two versions of a file's lines: exact for small regions, and for
// large ones anchored on unique lines so a very different file costs near-linear time.

/** `after` rebuilt from `before` and the blocks: what every caller relies on. */
function rebuild(before: string[], after: string[], blocks: Block[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (const block of blocks) {
    out.push(...before.slice(at, block.oldStart), ...after.slice(block.newStart, block.newEnd));
    at = block.oldEnd;
  }
  return [...out, ...before.slice(at)];
}

const numbered = (count: number): string[] => Array.from({ length: count }, (_, i) => `const v${i} = ${i};\n`);

describe('changedBlocks', () => {
  it('finds each changed line of a small file', () => {
    const before = numbered(20);
    const after = before.map((line, i) => (i === 3 || i === 15 ? `// ${line}` : line));
    expect(changedBlocks(before, after)).toEqual([
      { oldStart: 3, oldEnd: 4, newStart: 3, newEnd: 4 },
      { oldStart: 15, oldEnd: 16, newStart: 15, newEnd: 16 },
    ]);
  });

  it('anchors a large, very different file on its unique lines: only the changed lines are blocks', () => {
    const before = numbered(12_000);
    const after = before.map((line, i) => (i % 10 === 0 ? `${line.trimEnd()} // changed\n` : line));
    const blocks = changedBlocks(before, after);
    expect(blocks).toHaveLength(1200);
    expect(blocks.every((block) => block.oldEnd - block.oldStart === 1 && block.newEnd - block.newStart === 1)).toBe(
      true,
    );
    expect(rebuild(before, after, blocks)).toEqual(after);
  });

  it('keeps repeated lines (braces, blank lines) matched around the anchors', () => {
    const unit = (i: number) => [`function f${i}() {\n`, `  return ${i};\n`, '}\n', '\n'];
    const before = Array.from({ length: 2000 }, (_, i) => unit(i)).flat();
    const after = Array.from({ length: 2000 }, (_, i) =>
      unit(i).map((l) => (i % 7 === 0 ? l.replace('return', 'yield') : l)),
    ).flat();
    const blocks = changedBlocks(before, after);
    expect(rebuild(before, after, blocks)).toEqual(after);
    expect(blocks.reduce((sum, block) => sum + (block.oldEnd - block.oldStart), 0)).toBe(Math.ceil(2000 / 7));
  });

  it('rebuilds a file whose halves were swapped', () => {
    const before = numbered(6000);
    const after = [...before.slice(3000), ...before.slice(0, 3000)];
    expect(rebuild(before, after, changedBlocks(before, after))).toEqual(after);
  });
});
