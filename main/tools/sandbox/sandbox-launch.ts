import { accessSync, constants, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SandboxRules } from '../../../protocol/sandbox.ts';
import { bwrapArgs } from './bwrap-args.ts';
import { watchProcessCount, type ProcessWatch } from './process-watch.ts';
import { BRIDGE_PORT, bridgedArgv } from './proxy-bridge.ts';
import { SandboxProxy } from './network-proxy.ts';
import { localDaemonSockets, planSandbox, type SandboxPlace, type SandboxPlan } from './sandbox-plan.ts';
import { sandboxRefusal } from './sandbox-refusal.ts';
import { sandboxSupport, unavailableNotice, type SandboxSupport } from './sandbox-support.ts';
import { seatbeltProfile } from './seatbelt-profile.ts';
import type { SpawnWrapper } from './spawn-wrapper.ts';
import { takeWarm, warmUp, type WarmRequest } from './warm-sandbox.ts';

// One sandboxed run: the plan from the rules, the network proxy when hosts are allowed, the
// wrapper the spawn goes through, and afterwards what the sandbox refused. `close` ends the proxy.

export interface SandboxRun {
  rules: SandboxRules;
  place: SandboxPlace;
  support: Extract<SandboxSupport, { available: true }>;
  /** A terminal's shell keeps its session (job control). */
  terminal?: boolean;
  /** The Node that runs the network bridge inside; default this process's. */
  node?: string;
}

export interface SandboxLaunch extends SpawnWrapper {
  readonly plan: SandboxPlan;
  /** Why the sandbox stopped the run (from its output and what the sandbox saw), or null. */
  refusal(output: string): string | null;
  close(): Promise<void>;
}

const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'ALL_PROXY', 'all_proxy'];
const NO_PROXY_VARIABLES = ['NO_PROXY', 'no_proxy'];

export async function launchSandbox(run: SandboxRun): Promise<SandboxLaunch> {
  const plan = planSandbox(run.rules, run.place);
  const seatbelt = run.support.mechanism === 'seatbelt';
  const proxy = plan.network.length > 0 ? await SandboxProxy.start(plan.network, os.tmpdir(), seatbelt) : null;
  const proxyUrl = proxy ? `http://127.0.0.1:${seatbelt ? proxy.port : BRIDGE_PORT}` : null;
  const limitNative = process.getuid?.() !== 0 && !seatbelt ? prlimitProgram() : null;
  let watch: ProcessWatch | null = null;
  const bubblewrap = (argv: readonly string[]): string[] => {
    const limited = limitNative ? [limitNative, `--nproc=${plan.maxProcesses}`, '--', ...argv] : [...argv];
    const inner = proxy ? bridgedArgv(run.node ?? process.execPath, proxy.socketPath, limited) : limited;
    return [
      run.support.program,
      ...bwrapArgs(plan, inner, {
        ...(proxy ? { proxyFolder: proxy.folder } : {}),
        ...(run.terminal ? { terminal: true } : {}),
        // Node's own folder (the network bridge, `node` of an MCP server), where only named paths are readable.
        programFolders: [programFolder(realpathSync(run.node ?? process.execPath))],
      }),
    ];
  };
  const env = (base: NodeJS.ProcessEnv): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...base };
    for (const name of [...PROXY_VARIABLES, ...NO_PROXY_VARIABLES]) delete env[name];
    if (!seatbelt) env['TMPDIR'] = '/tmp';
    if (proxyUrl) for (const name of PROXY_VARIABLES) env[name] = proxyUrl;
    if (proxy && !seatbelt && process.versions['electron']) env['ELECTRON_RUN_AS_NODE'] = '1';
    return env;
  };
  // A piped command with no proxy, over the workspace itself, can take a sandbox made ahead for the same plan.
  const warmable = !seatbelt && !proxy && !run.terminal && !plan.workspaceSource;
  // Its folder is not part of it: the command changes to its own as it is handed over.
  const warmKey = JSON.stringify([run.support.program, limitNative, { ...plan, cwd: '' }]);
  /** A piped command was run through it: once it has ended, the next sandbox of the plan is made ahead. */
  let offered = false;
  return {
    plan,
    // bubblewrap is the namespace's first process and exits only after it: the kernel has ended the rest.
    endsEverything: !seatbelt,
    wrap(argv) {
      if (seatbelt) {
        const tmp = [...new Set(['/tmp', '/private/tmp', '/private/var/folders', os.tmpdir()])];
        return [run.support.program, '-p', seatbeltProfile(plan, tmp, proxy?.port), ...argv];
      }
      return bubblewrap(argv);
    },
    env,
    ...(warmable
      ? {
          adopt: (request: WarmRequest) => {
            offered = true;
            return takeWarm(warmKey, { ...request, env: env(request.env) });
          },
        }
      : {}),
    started(pid) {
      // Without prlimit's RLIMIT_NPROC (root, or no prlimit) the namespace is watched instead.
      if (pid !== undefined && !seatbelt && !limitNative) watch = watchProcessCount(pid, plan.maxProcesses);
    },
    refusal(output) {
      return sandboxRefusal(plan, {
        output,
        refusedHosts: proxy ? [...proxy.refused] : [],
        tooManyProcesses: watch?.exceeded ?? false,
      });
    },
    async close() {
      watch?.stop();
      await proxy?.close();
      if (offered) warmUp(warmKey, bubblewrap);
    },
  };
}

/**
 * The sandbox for a command in `cwd` of `workspace`, with the app's own folders hidden too; throws
 * (saying why and what to do) where no sandbox can start, so nothing runs unsandboxed unasked.
 */
export async function sandboxForCommand(
  rules: SandboxRules,
  place: { workspace: string; cwd: string; appFolders?: readonly string[]; workspaceSource?: string },
  options: { terminal?: boolean; support?: SandboxSupport } = {},
): Promise<SandboxLaunch> {
  const support = options.support ?? sandboxSupport();
  if (!support.available) throw new Error(unavailableNotice(support));
  const appHome = process.env['AETHERCODEX_HOME'];
  return launchSandbox({
    rules,
    place: {
      ...place,
      home: os.homedir(),
      appFolders: [...(place.appFolders ?? []), ...(appHome ? [appHome] : [])],
      sockets: localDaemonSockets(process.env, os.homedir()),
    },
    support,
    ...(options.terminal ? { terminal: true } : {}),
  });
}

let prlimit: string | null | undefined;

function prlimitProgram(): string | null {
  if (prlimit !== undefined) return prlimit;
  prlimit = null;
  for (const candidate of ['/usr/bin/prlimit', '/bin/prlimit']) {
    try {
      accessSync(candidate, constants.X_OK);
      prlimit = candidate;
      break;
    } catch {
      // Not here.
    }
  }
  return prlimit;
}

/** The folder a program's install keeps it in: `PREFIX` of `PREFIX/bin/node`, else its own folder (an AppImage's mount). */
export function programFolder(real: string): string {
  const folder = path.dirname(real);
  return path.basename(folder) === 'bin' ? path.dirname(folder) : folder;
}
