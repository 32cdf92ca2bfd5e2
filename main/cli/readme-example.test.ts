import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { aether, LAUNCHER } from '../../test/aether-cli.ts';
import { useTempWorkspace } from '../../test/temp-workspace.ts';

// The README's first `aether run` example, as a newcomer copies it: it must succeed as written,
// the demo model's write included, through the launcher when it says `./aether`. Only its folders
// are swapped for temporary ones.

const RUN = /^(?:\.\/aether|npx aether) run /;
const readme = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../README.md');

/** The first ```sh block of the README that runs `aether run`, its lines without comments. */
async function firstRunExample(): Promise<string[]> {
  const text = await readFile(readme, 'utf8');
  for (const [, block = ''] of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const lines = block
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line.length > 0 && !line.startsWith('#'));
    if (lines.some((line) => RUN.test(line))) return lines;
  }
  throw new Error('The README has no ```sh block with an `./aether run` (or `npx aether run`) example.');
}

/** A command line's words, as a POSIX shell splits them (quotes, no expansions). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3] ?? '');
}

const temp = useTempWorkspace('aether-readme-');

it("the README's first aether run example succeeds as written, with no denial", async () => {
  const lines = await firstRunExample();
  const run = lines.find((line) => RUN.test(line)) ?? '';
  const launched = run.startsWith('./aether');
  const words = shellWords(run).slice(launched ? 1 : 2);
  const folder = words[words.indexOf('--workspace') + 1] ?? '';
  // The example's folder is made before it is used: a copied example never starts in a missing one.
  expect(lines.slice(0, lines.indexOf(run))).toContain(`mkdir -p ${folder}`);

  const args = words.map((word) => (word === folder ? temp.workspace : word));
  const ran = await aether([...args, '--sessions', temp.sessionsRoot], {}, launched ? LAUNCHER : undefined);
  expect(ran.stderr).toBe('');
  expect(ran.code).toBe(0);
  expect(ran.stdout).not.toMatch(/denied|refused/i);
  expect(ran.stdout).not.toMatch(/^[✗⊘]/m);
  expect(ran.stdout).toMatch(/^✓ Create AETHER_DEMO\.md /m);
  expect(ran.stdout).toMatch(/^✓ Patch AETHER_DEMO\.md /m);
  expect(await readFile(path.join(temp.workspace, 'AETHER_DEMO.md'), 'utf8')).toContain(
    'Status: patched by the demo model.',
  );
}, 90_000);
