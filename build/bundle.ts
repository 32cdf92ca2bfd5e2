import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { build, type BuildOptions, type Plugin } from 'esbuild';

// Bundles the Electron main process and the preload (the renderer is Vite's job):
//   out/main/index.js      ESM, main/electron/main.ts; production dependencies stay external
//   out/main/<worker>.js   every `new URL('./x.ts', import.meta.url)` a main file points at (the
//                          Code Mode worker), as its own entry, with the URL rewritten to match
//   out/preload/index.cjs  one CommonJS file: a sandboxed preload may require only `electron`
// Run: `node build/bundle.ts` (npm run build:main).

export interface BundleOptions {
  /** The repository root. */
  root: string;
  /** Default `<root>/out`. */
  outDir?: string;
  /** Default: the dependencies of `<root>/package.json`. */
  external?: string[];
}

export interface BundleResult {
  main: string;
  preload: string;
  workers: string[];
}

/** Floors below what Electron 45 ships (its Node 24 and Chromium), so nothing is down-levelled. */
const MAIN_TARGET = 'node22';
const PRELOAD_TARGET = 'chrome140';
export const WORKER_URL = /new URL\(\s*(['"])(\.{1,2}\/[^'"]+?)\.ts\1\s*,\s*import\.meta\.url\s*\)/g;

export async function bundle(options: BundleOptions): Promise<BundleResult> {
  const root = path.resolve(options.root);
  const outDir = options.outDir ?? path.join(root, 'out');
  const external = options.external ?? (await productionDependencies(root));
  const workers = new Map<string, string>();
  // The main process and its workers: ESM for Node, production dependencies left to node_modules.
  const mainProcess = {
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: MAIN_TARGET,
    external: ['electron', ...external, ...external.map((name) => `${name}/*`)],
    // Dependencies bundled from CommonJS still call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __aetherRequire } from 'node:module'; const require = __aetherRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    logLevel: 'warning',
  } satisfies BuildOptions;

  await build({
    ...mainProcess,
    entryPoints: { index: path.join(root, 'main/electron/main.ts') },
    outdir: path.join(outDir, 'main'),
    plugins: [workerUrls(root, workers)],
  });

  const workerOutputs: string[] = [];
  for (const [source, name] of workers) {
    const output = path.join(outDir, 'main', `${name}.js`);
    await build({ ...mainProcess, entryPoints: [source], outfile: output });
    workerOutputs.push(output);
  }

  const preload = path.join(outDir, 'preload', 'index.cjs');
  await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, 'preload/index.ts')],
    outfile: preload,
    bundle: true,
    format: 'cjs',
    platform: 'browser',
    target: PRELOAD_TARGET,
    external: ['electron'],
    sourcemap: 'linked',
    logLevel: 'warning',
  });

  return { main: path.join(outDir, 'main', 'index.js'), preload, workers: workerOutputs };
}

async function productionDependencies(root: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  return Object.keys(manifest.dependencies ?? {});
}

/**
 * A worker started from a sibling .ts file cannot follow the code into one bundle: each such URL
 * becomes `./<name>.js` next to index.js, and the file is bundled on its own afterwards.
 */
function workerUrls(root: string, workers: Map<string, string>): Plugin {
  return {
    name: 'aether-worker-urls',
    setup(build) {
      build.onLoad({ filter: /[\\/]main[\\/].*\.ts$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const contents = text.replace(WORKER_URL, (_match, quote: string, relative: string) => {
          const source = path.resolve(path.dirname(args.path), `${relative}.ts`);
          const name = workerName(root, source, workers);
          return `new URL(${quote}./${name}.js${quote}, import.meta.url)`;
        });
        return { contents, loader: 'ts' };
      });
    },
  };
}

function workerName(root: string, source: string, workers: Map<string, string>): string {
  const known = workers.get(source);
  if (known) return known;
  const base = path.basename(source, '.ts');
  const taken = new Set(workers.values());
  // Two workers with one base name get their folder in the name instead.
  const name =
    taken.has(base) || base === 'index'
      ? path.relative(root, source).replace(/\.ts$/, '').replace(/[\\/]/g, '-')
      : base;
  workers.set(source, name);
  return name;
}

if (import.meta.main) {
  const root = path.resolve(import.meta.dirname, '..');
  const result = await bundle({ root });
  process.stdout.write(
    `Built ${path.relative(root, result.main)}, ${path.relative(root, result.preload)}${result.workers.map((file) => `, ${path.relative(root, file)}`).join('')}\n`,
  );
}
