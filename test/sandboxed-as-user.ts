import { DEFAULT_SANDBOX_RULES } from '../protocol/sandbox.ts';
import { runInGroup } from '../main/tools/exec/run-in-group.ts';
import { systemClock } from '../main/tools/progress-reporter.ts';
import { launchSandbox } from '../main/tools/sandbox/sandbox-launch.ts';
import { probeSandboxSupport } from '../main/tools/sandbox/sandbox-support.ts';

// A command run in the sandbox by this process, as exec runs it, for a test that starts this file
// as another user (setpriv): `node sandboxed-as-user.ts WORKSPACE MAX_PROCESSES COMMAND`. Prints
// one JSON line: the user, the exit code and what the sandbox refused.

const [workspace = '', max = '', command = ''] = process.argv.slice(2);
const support = probeSandboxSupport();
if (!support.available) {
  process.stdout.write(`${JSON.stringify({ unavailable: `${support.reason} ${support.fix}` })}\n`);
  process.exit(0);
}
const launch = await launchSandbox({
  rules: { ...DEFAULT_SANDBOX_RULES, writable: [], max_processes: Number(max) },
  place: { workspace, cwd: workspace, home: workspace },
  support,
});
const chunks: Buffer[] = [];
try {
  const ended = await runInGroup({
    shell: '/bin/sh',
    command,
    cwd: workspace,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: workspace, LANG: 'C' },
    timeoutMs: 60_000,
    killGraceMs: 1000,
    signal: new AbortController().signal,
    clock: systemClock,
    wrapper: launch,
    append: (chunk) => chunks.push(chunk) > 0,
    drained: () => Promise.resolve(),
  });
  const output = Buffer.concat(chunks).toString('utf8');
  const uid = process.getuid?.();
  process.stdout.write(
    `${JSON.stringify({ uid, exitCode: ended.exitCode, output, refusal: launch.refusal(output) })}\n`,
  );
} finally {
  await launch.close();
}
