import type { PipedChild } from '../exec/command-spawn.ts';
import type { WarmRequest } from './warm-sandbox.ts';

// How a spawn runs inside something: exec's commands, terminals and stdio MCP servers start their
// program through one of these when they are sandboxed (sandbox-launch.ts makes it).

export interface SpawnWrapper {
  /** The program and arguments that run `argv` inside. */
  wrap(argv: readonly string[]): string[];
  /** The environment the wrapped program starts with, from the one it would have had. */
  env(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  /** The wrapping process started (its pid), or did not (undefined). */
  started(pid: number | undefined): void;
  /**
   * True when the wrapping process exiting of itself means every process it started has ended
   * (a PID namespace whose first process the kernel waits on): nothing is left to look for.
   */
  readonly endsEverything?: boolean;
  /** A piped command already running inside, started ahead (warm-sandbox.ts); null: spawn it the plain way. */
  adopt?(request: WarmRequest): PipedChild | null;
}
