// Types of session-heap.js, which runs before any TypeScript is loaded.

export const SESSION_COMMANDS: ReadonlySet<string>;
export const SESSION_HEAP_FLAGS: readonly string[];

export function restartArgs(here: {
  argv: string[];
  execArgv: string[];
  nodeOptions: string | undefined;
  canExec: boolean;
}): string[] | null;

export const SESSION_ENV: Readonly<Record<string, string>>;

export function restartEnv(env: Record<string, string | undefined>): Record<string, string | undefined>;
