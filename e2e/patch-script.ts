import type { FixtureScriptInput } from '../main/model/fixture-script.ts';

// The model's side of the patch_file specs.

/** `count` lines "line N\n", numbered from `from`. */
export const numberedLines = (count: number, from = 1): string =>
  Array.from({ length: count }, (_, index) => `line ${index + from}\n`).join('');

/** One patch_file call (id `call_patch`) making `edits` to `path`, then the answer `reply`. */
export function patchScript(
  path: string,
  edits: { old_text: string; new_text: string }[],
  reply: string,
): FixtureScriptInput {
  return {
    steps: [{ tool_calls: [{ id: 'call_patch', name: 'patch_file', args: { path, edits } }] }, { text: [reply] }],
  };
}
