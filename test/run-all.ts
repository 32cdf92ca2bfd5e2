import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FRESH_BUILD_ENV } from '../build/fresh-build.ts';
import { formatDuration } from '../protocol/format.ts';

// `npm test`: every check, in stages; a stage starts once the one before has passed:
//
//   1. the system programs the tests need (test/preflight.ts): it fails in a second;
//   2. the type check, the lint and the build, side by side;
//   3. the unit tests, and beside them the Electron lint and the browser specs (which need the build).
//
// The unit tests mostly wait on the processes, sockets and disks they drive, so the browser specs
// use the cores they leave idle. Every panel a spec starts has a home of its own, and an app's start
// sweep ends only what an app of its own home left running, so neither suite ends the other's
// processes.
// Each step's output is kept in a file and printed whole when it ends, so two steps never
// interleave their lines; while steps run, a line every minute says which, and for how long.

interface Step {
  name: string;
  /** npm scripts run one after another as this step; the first to fail ends it. */
  scripts: string[];
}

interface Outcome {
  name: string;
  ok: boolean;
  ms: number;
}

const ROOT = path.resolve(import.meta.dirname, '..');
const NPM = process.env['npm_execpath'];
const HEARTBEAT_MS = 60_000;

const STAGES: Step[][] = [
  [{ name: 'preflight', scripts: ['test:preflight'] }],
  [
    { name: 'typecheck', scripts: ['typecheck'] },
    { name: 'lint', scripts: ['lint'] },
    { name: 'build', scripts: ['build'] },
  ],
  [
    { name: 'unit tests', scripts: ['test:unit'] },
    { name: 'Electron lint, browser specs', scripts: ['lint:electron', 'test:e2e'] },
  ],
];

/** Runs one npm script with its output going to `log`; resolves true when it exits 0. */
function runScript(script: string, log: NodeJS.WritableStream): Promise<boolean> {
  // npm's own entry when `npm test` started this, so the same npm (and its PATH with Node 24) runs the steps.
  const [command, args] = NPM ? [process.execPath, [NPM, 'run', script]] : ['npm', ['run', script]];
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  return new Promise((resolve) => {
    child.once('error', (error) => {
      log.write(`\n${script} did not start: ${error.message}\n`);
      resolve(false);
    });
    child.once('close', (code) => resolve(code === 0));
  });
}

async function runStep(step: Step, logDir: string): Promise<Outcome> {
  const started = Date.now();
  const file = path.join(logDir, `${step.name.replace(/\W+/g, '-')}.log`);
  const log = createWriteStream(file);
  let ok = true;
  for (const script of step.scripts) {
    ok = await runScript(script, log);
    if (!ok) break;
  }
  await new Promise<void>((resolve) => log.end(resolve));
  const ms = Date.now() - started;
  process.stdout.write(`\n━━ ${step.name}: ${ok ? 'passed' : 'FAILED'} in ${formatDuration(ms)} ━━\n`);
  process.stdout.write(await readFile(file, 'utf8'));
  return { name: step.name, ok, ms };
}

async function runStage(steps: Step[], logDir: string): Promise<Outcome[]> {
  const started = Date.now();
  const running = new Set(steps.map((step) => step.name));
  const heartbeat = setInterval(() => {
    const names = [...running].join(', ');
    process.stdout.write(`… still running after ${formatDuration(Date.now() - started)}: ${names}\n`);
  }, HEARTBEAT_MS);
  try {
    return await Promise.all(
      steps.map(async (step) => {
        const outcome = await runStep(step, logDir);
        running.delete(step.name);
        return outcome;
      }),
    );
  } finally {
    clearInterval(heartbeat);
  }
}

async function main(): Promise<number> {
  const logDir = await mkdtemp(path.join(os.tmpdir(), 'aether-test-logs-'));
  const started = Date.now();
  const outcomes: Outcome[] = [];
  try {
    for (const stage of STAGES) {
      const stageStarted = Date.now();
      outcomes.push(...(await runStage(stage, logDir)));
      if (outcomes.some((outcome) => !outcome.ok)) break;
      // The next stage's packaging test packs this build's out/ instead of building it again; the
      // time is the second the build began (file systems keep whole seconds), which out/ must postdate.
      if (stage.some((step) => step.scripts.includes('build')))
        process.env[FRESH_BUILD_ENV] = String(Math.floor(stageStarted / 1000) * 1000);
    }
  } finally {
    await rm(logDir, { recursive: true, force: true });
  }
  const failed = outcomes.filter((outcome) => !outcome.ok);
  process.stdout.write('\n');
  for (const { name, ok, ms } of outcomes)
    process.stdout.write(`${ok ? '✓' : '✗'} ${name.padEnd(30)} ${formatDuration(ms)}\n`);
  process.stdout.write(
    failed.length === 0
      ? `npm test passed in ${formatDuration(Date.now() - started)}.\n`
      : `npm test failed (${failed.map((outcome) => outcome.name).join(', ')}) after ${formatDuration(Date.now() - started)}; the output of each step is above.\n`,
  );
  return failed.length === 0 ? 0 : 1;
}

process.exitCode = await main();
