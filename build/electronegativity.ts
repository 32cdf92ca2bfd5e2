// Electronegativity over the built main process and preload: `npm run lint:electron` (after
// `npm run build`). Exits 1 when a HIGH or MEDIUM finding is not accepted in
// build/electronegativity-accepted.ts, when an acceptance no longer matches anything (so the list
// stays true), or when a bundle cannot be parsed.
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { acceptedFindings } from './electronegativity-accepted.ts';
import type { Acceptance } from './electronegativity-accepted.ts';

export interface Finding {
  check: string;
  file: string;
  line: number;
  severity: string;
  confidence: string;
  description: string;
  sample: string;
}

export interface Review {
  blocking: Finding[];
  accepted: Array<{ finding: Finding; acceptance: Acceptance }>;
  stale: Acceptance[];
  minor: Finding[];
}

// Checks that are not run: AvailableSecurityFixesGlobalCheck downloads Electron's release list on
// every run; the Electron version is pinned in package.json and reviewed when it is raised.
const SKIPPED_CHECKS = ['AvailableSecurityFixesGlobalCheck'];
const BLOCKING = new Set(['HIGH', 'MEDIUM']);

interface RawIssue {
  id: string;
  file: string;
  location: { line: number };
  severity: { name: string };
  confidence: { name: string };
  description: string;
  sample?: string;
}
interface RawResult {
  issues: RawIssue[];
  errors: Array<{ file: string; message: string; tolerable: boolean }>;
}
type Runner = (options: Record<string, unknown>) => Promise<RawResult>;

const require = createRequire(import.meta.url);

/**
 * The scanner, loaded so that it stays offline: it fetches translations with `got` before every run
 * (and retries for seconds without a network). A `got` that fails at once keeps its built-in English.
 */
function loadScanner(): Runner {
  const runnerPath = require.resolve('@doyensec/electronegativity');
  const gotPath = createRequire(runnerPath).resolve('got');
  if (!require.cache[gotPath]) {
    const offline = new Module(gotPath);
    offline.filename = gotPath;
    offline.loaded = true;
    offline.exports = () => Promise.reject(new Error('electronegativity runs offline here'));
    require.cache[gotPath] = offline;
  }
  return require(runnerPath) as Runner;
}

/** Runs every check over one folder; file names in findings are relative to it. */
export async function scan(input: string, electronVersion: string): Promise<{ findings: Finding[]; errors: string[] }> {
  const run = loadScanner();
  const result = await run({
    input,
    isRelative: true,
    electronVersionOverride: electronVersion,
    excludeFromScan: SKIPPED_CHECKS,
  });
  const findings = result.issues.map((issue) => ({
    check: issue.id,
    file: issue.file,
    line: issue.location.line,
    severity: issue.severity.name,
    confidence: issue.confidence.name,
    description: issue.description,
    sample: issue.sample ?? '',
  }));
  return {
    findings,
    errors: result.errors.filter((error) => !error.tolerable).map((error) => `${error.file}: ${error.message}`),
  };
}

function matches(acceptance: Acceptance, finding: Finding): boolean {
  return (
    acceptance.check === finding.check && acceptance.file === finding.file && finding.sample.includes(acceptance.sample)
  );
}

/** Sorts findings into blocking, accepted (with the reason) and minor; lists acceptances nothing matched. */
export function review(findings: readonly Finding[], acceptances: readonly Acceptance[]): Review {
  const result: Review = { blocking: [], accepted: [], stale: [], minor: [] };
  const used = new Set<Acceptance>();
  for (const finding of findings) {
    if (!BLOCKING.has(finding.severity)) {
      result.minor.push(finding);
      continue;
    }
    const acceptance = acceptances.find((candidate) => matches(candidate, finding));
    if (acceptance) {
      used.add(acceptance);
      result.accepted.push({ finding, acceptance });
    } else {
      result.blocking.push(finding);
    }
  }
  result.stale = acceptances.filter((acceptance) => !used.has(acceptance));
  return result;
}

/** Copies the main and preload bundles (no source maps) into one folder, so global checks see both. */
export async function gatherBundles(outDir: string, into: string): Promise<string[]> {
  const copied: string[] = [];
  for (const part of ['main', 'preload']) {
    const from = join(outDir, part);
    const names = (await readdir(from).catch(() => [])).filter((name) => /\.(c|m)?js$/.test(name));
    if (names.length === 0) throw new Error(`No bundle in ${from}: run \`npm run build\` first.`);
    await mkdir(join(into, part), { recursive: true });
    for (const name of names) {
      await copyFile(join(from, name), join(into, part, name));
      copied.push(`${part}/${name}`);
    }
  }
  return copied;
}

export function formatReview(outcome: Review): string {
  const line = (finding: Finding) =>
    `${finding.severity.padEnd(6)} ${finding.check}  ${finding.file}:${finding.line}  ${finding.sample.trim().slice(0, 100)}`;
  return [
    ...outcome.blocking.map((finding) => `✗ ${line(finding)}\n    ${finding.description}`),
    ...outcome.accepted.map(({ finding, acceptance }) => `✓ ${line(finding)}\n    accepted: ${acceptance.reason}`),
    ...outcome.stale.map(
      (acceptance) =>
        `✗ stale acceptance ${acceptance.check} in ${acceptance.file} ("${acceptance.sample}") matches no finding: remove it from build/electronegativity-accepted.ts and docs/security.md`,
    ),
    `${outcome.blocking.length} unexplained HIGH/MEDIUM, ${outcome.accepted.length} accepted, ${outcome.stale.length} stale acceptances, ${outcome.minor.length} LOW/INFORMATIONAL not listed.`,
  ].join('\n');
}

if (import.meta.main) {
  const root = resolve(import.meta.dirname, '..');
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const electronVersion = manifest.devDependencies['electron'] ?? '';
  const folder = await mkdtemp(join(tmpdir(), 'aether-electronegativity-'));
  try {
    const files = await gatherBundles(resolve(root, process.argv[2] ?? 'out'), folder);
    const { findings, errors } = await scan(folder, electronVersion);
    const outcome = review(findings, acceptedFindings);
    process.stdout.write(
      `electronegativity (Electron ${electronVersion}) over ${files.join(', ')}\n${formatReview(outcome)}\n`,
    );
    for (const error of errors) process.stdout.write(`✗ could not parse ${error}\n`);
    process.exitCode = outcome.blocking.length > 0 || outcome.stale.length > 0 || errors.length > 0 ? 1 : 0;
  } catch (error) {
    process.stderr.write(`lint:electron: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
