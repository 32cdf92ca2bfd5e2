import type { SandboxPlan } from './sandbox-plan.ts';

// What the sandbox kept a command from doing, read from what the command said and what the
// sandbox saw (the hosts its proxy refused, the process limit reached), in words that name what
// the command needed: the model can fix the command or ask to run it outside.

export interface SandboxSighting {
  /** The command's output (its tail is enough). */
  output: string;
  /** Hosts the proxy refused. */
  refusedHosts: readonly string[];
  /** The process limit was passed and the sandbox ended. */
  tooManyProcesses: boolean;
}

const NETWORK_FAILURE =
  /\b(ENOTFOUND|EAI_AGAIN|ENETUNREACH|ECONNREFUSED)\b|Could not resolve host|Temporary failure in name resolution|Network is unreachable|Connection refused|getaddrinfo/i;
/** `cannot create ../x: Read-only file system`, `touch: cannot touch '/x'`, Node's `EROFS: …, open '/x'`. */
const READ_ONLY = /['"`]?([^\s'"`]+?)['"`]?: Read-only file system|EROFS[^'\n]*'([^'\n]+)'|Read-only file system|EROFS/;
const NO_SPACE = /No space left on device|ENOSPC/;
const NO_PROCESSES = /fork: (?:retry: )?Resource temporarily unavailable|EAGAIN.*spawn|Cannot fork/i;

/** Why the sandbox stopped the command, or null when nothing shows it did. */
export function sandboxRefusal(plan: SandboxPlan, seen: SandboxSighting): string | null {
  const reasons: string[] = [];
  if (seen.tooManyProcesses || NO_PROCESSES.test(seen.output))
    reasons.push(`it ran more processes than the sandbox allows at once (${plan.maxProcesses})`);
  const readOnly = READ_ONLY.exec(seen.output);
  if (readOnly) {
    const path = readOnly[1] ?? readOnly[2];
    const where = path ? `${path}, ` : '';
    reasons.push(`it tried to write ${where}outside what the sandbox lets it write (${writableList(plan)})`);
  }
  if (NO_SPACE.test(seen.output))
    reasons.push(`a write ran out of room: the sandbox's /tmp holds ${Math.round(plan.tmpBytes / 1048576)} MiB`);
  if (seen.refusedHosts.length > 0)
    reasons.push(`it tried to reach ${seen.refusedHosts.join(', ')}, not on the sandbox's network allow-list`);
  else if (NETWORK_FAILURE.test(seen.output))
    reasons.push(
      plan.network.length === 0
        ? 'it needed the network, and the sandbox has none'
        : `it needed the network; the sandbox reaches only ${plan.network.join(', ')}, through its proxy (HTTP_PROXY)`,
    );
  if (reasons.length === 0) return null;
  return `The sandbox stopped it: ${reasons.join('; ')}.`;
}

function writableList(plan: SandboxPlan): string {
  if (plan.readOnlyWorkspace)
    return 'in the plan mode only its own /tmp: nothing of the workspace changes until a plan is approved';
  return ['the workspace', '/tmp', ...plan.writable].join(', ');
}
