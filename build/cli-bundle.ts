import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build, type BuildOptions, type Metafile, type OutputFile, type Plugin } from 'esbuild';
import { MANIFEST, MANIFEST_FORMAT, type CliManifest } from '../bin/cli-bundle.js';
import { WORKER_URL } from './bundle.ts';

// The `aether` command line as ESM bundles split by command (esbuild's code splitting): the
// dynamic import of each command, and of each built-in tool, is a split point, so
// `aether tool read_file` loads a few pre-built files instead of ~90 TypeScript modules through
// type stripping. bin/aether.js runs it while it is current (bin/cli-bundle.js), the sources
// otherwise.
//   out/cli/aether-<hash>.js   the entry (main/cli/aether.ts); chunks and workers beside it
//   out/cli/manifest.json      the entry, the files written, and every input's mtime and size
// zod is bundled, with only its English locale (what bin/zod-locales.js gives the sources): the
// 64 modules of zod's own entry cost a third of a start. The other production dependencies stay
// in node_modules. Every file name carries its content's hash and is written once, next to the
// previous build's files, so a process running from an earlier build keeps finding its chunks;
// the manifest, written last, switches new starts over. Run: `node build/cli-bundle.ts`.

export interface CliBundleOptions {
  /** The repository root. */
  root: string;
  /** Default `<root>/out/cli`. */
  outDir?: string;
}

export interface CliBundleResult {
  /** The entry file. */
  entry: string;
  /** Inputs that changed while the bundle was built: it will not be used until the next build. */
  changedDuring: string[];
}

const TARGET = 'node22';
/** Inputs every build depends on besides what esbuild reads: the list of external packages, the bundler. */
const ALWAYS_INPUTS = ['package.json', 'build/cli-bundle.ts', 'build/bundle.ts', 'bin/cli-bundle.js'];
/** An unreferenced file this recent may belong to a build still writing: it is left alone. */
const PRUNE_AFTER_MS = 60_000;

export async function bundleCli(options: CliBundleOptions): Promise<CliBundleResult> {
  const root = path.resolve(options.root);
  const outDir = options.outDir ?? path.join(root, 'out', 'cli');
  const started = Date.now();
  const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const external = Object.keys(manifest.dependencies ?? {}).filter((name) => name !== 'zod');
  const common = {
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: TARGET,
    external: ['electron', ...external, ...external.map((name) => `${name}/*`)],
    // Dependencies bundled from CommonJS call require(); give each file one.
    banner: { js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);" },
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'warning',
  } satisfies BuildOptions;

  const outputs: OutputFile[] = [];
  const inputs = new Set(ALWAYS_INPUTS);
  const collect = (files: OutputFile[], metafile: Metafile) => {
    outputs.push(...files);
    // A file's path, or `namespace:path` for a module no file holds (the built-in shims).
    for (const input of Object.keys(metafile.inputs)) if (!/^[\w-]+:/.test(input)) inputs.add(input);
  };
  const workers = new Map<string, Promise<string>>();
  // A worker gets its own file, named by its hash, and the URL that starts it points there. A
  // worker's own worker URLs stay as they are (as in bundle.ts): search-worker.ts imports the
  // module that starts it.
  const buildWorker = async (source: string): Promise<string> => {
    const base = path.basename(source, '.ts');
    const result = await build({
      ...common,
      entryPoints: { [base]: source },
      outdir: outDir,
      entryNames: '[name]-[hash]',
      plugins: [englishZod(root), builtinsWithoutFacade()],
    });
    collect(result.outputFiles, result.metafile);
    const js = result.outputFiles.find((file) => file.path.endsWith('.js'));
    if (!js) throw new Error(`esbuild wrote no JavaScript for ${source}`);
    return path.basename(js.path);
  };
  const plugins = [
    englishZod(root),
    builtinsWithoutFacade(),
    workerUrls((source) => {
      let name = workers.get(source);
      if (!name) workers.set(source, (name = buildWorker(source)));
      return name;
    }),
  ];

  const main = await build({
    ...common,
    entryPoints: { aether: path.join(root, 'main', 'cli', 'aether.ts') },
    outdir: outDir,
    splitting: true,
    entryNames: '[name]-[hash]',
    plugins,
  });
  collect(main.outputFiles, main.metafile);
  const entry = Object.entries(main.metafile.outputs).find(
    ([, output]) => output.entryPoint === 'main/cli/aether.ts',
  )?.[0];
  if (!entry) throw new Error('esbuild named no entry for main/cli/aether.ts');

  // Each input as it is now; one changed since the build began may or may not be in it.
  const changedDuring: string[] = [];
  const recorded: CliManifest['inputs'] = [];
  for (const input of [...inputs].sort()) {
    const now = await stat(path.join(root, input));
    const changed = now.mtimeMs >= started;
    if (changed) changedDuring.push(input);
    recorded.push([input, changed ? -1 : now.mtimeMs, now.size]);
  }

  await mkdir(outDir, { recursive: true });
  const files = [...new Set(outputs.map((file) => path.relative(outDir, file.path)))].sort();
  for (const file of outputs) await writeOnce(file.path, file.contents);
  const previous = await readManifest(outDir);
  const next: CliManifest = {
    format: MANIFEST_FORMAT,
    entry: path.relative(outDir, path.resolve(root, entry)),
    files,
    previous: previous?.files ?? [],
    inputs: recorded,
  };
  await writeAtomically(path.join(outDir, MANIFEST), `${JSON.stringify(next)}\n`);
  await prune(outDir, new Set([MANIFEST, ...next.files, ...next.previous]));
  return { entry: path.join(outDir, next.entry), changedDuring };
}

/** zod's `z.locales` re-exports every locale; the bundle gets English only, as the sources do. */
function englishZod(root: string): Plugin {
  return {
    name: 'aether-english-zod',
    setup(build) {
      build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
        /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
          ? { path: path.join(root, 'bin', 'zod-locales.js') }
          : undefined,
      );
    },
  };
}

/**
 * Node's built-in modules through `process.getBuiltinModule()`. Importing one as ESM builds its
 * ESM facade, which reads every export and so loads the lazy ones as well (node:fs its streams,
 * node:util its diff, node:crypto its web crypto: ≈20 ms of a start); read as CommonJS, only what
 * is used is read, when it is used.
 */
function builtinsWithoutFacade(): Plugin {
  return {
    name: 'aether-builtins-without-facade',
    setup(build) {
      build.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'aether-builtin' }));
      build.onLoad({ filter: /.*/, namespace: 'aether-builtin' }, (args) => ({
        contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };
}

/** `new URL('./x.ts', import.meta.url)` becomes the URL of x's own bundle, beside the chunks. */
function workerUrls(workerFile: (source: string) => Promise<string>): Plugin {
  return {
    name: 'aether-cli-worker-urls',
    setup(build) {
      build.onLoad({ filter: /[\\/]main[\\/].*\.ts$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const names = new Map<string, string>();
        for (const match of text.matchAll(WORKER_URL)) {
          const source = path.resolve(path.dirname(args.path), `${match[2]}.ts`);
          names.set(match[0], await workerFile(source));
        }
        const contents = text.replace(WORKER_URL, (found, quote: string) => {
          return `new URL(${quote}./${names.get(found)}${quote}, import.meta.url)`;
        });
        return { contents, loader: 'ts' };
      });
    },
  };
}

async function readManifest(outDir: string): Promise<CliManifest | null> {
  try {
    return JSON.parse(await readFile(path.join(outDir, MANIFEST), 'utf8')) as CliManifest;
  } catch {
    return null;
  }
}

/**
 * A module's name carries its content's hash: one already there is this one, and is not rewritten
 * under a reader. A source map is written again (the same code can map to sources that moved).
 */
async function writeOnce(file: string, contents: Uint8Array): Promise<void> {
  const there = file.endsWith('.js') ? await stat(file).catch(() => null) : null;
  if (there?.size === contents.byteLength) return;
  await mkdir(path.dirname(file), { recursive: true });
  await writeAtomically(file, contents);
}

async function writeAtomically(file: string, contents: Uint8Array | string): Promise<void> {
  const temp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, contents);
    await rename(temp, file);
  } finally {
    await rm(temp, { force: true });
  }
}

/** Files of neither this build nor the previous one, once no build can still be writing them. */
async function prune(outDir: string, keep: Set<string>): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(outDir)) {
    if (keep.has(name)) continue;
    const file = path.join(outDir, name);
    const info = await stat(file).catch(() => null);
    if (info?.isFile() && now - info.mtimeMs > PRUNE_AFTER_MS) await rm(file, { force: true });
  }
}

if (import.meta.main) {
  const root = path.resolve(import.meta.dirname, '..');
  const result = await bundleCli({ root });
  process.stdout.write(`Built ${path.relative(root, result.entry)} (the aether command line)\n`);
  if (result.changedDuring.length > 0)
    process.stderr.write(
      `These files changed while the command line was bundled, so aether runs the sources until the next build: ${result.changedDuring.join(', ')}\n`,
    );
}
