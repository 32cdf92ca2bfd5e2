// Types of young-generation.js, which runs before any TypeScript is loaded.

export const SESSION_COMMANDS: ReadonlySet<string>;
export const SEMI_SPACE_FLAG: string;

export function restartArgs(here: {
  argv: string[];
  execArgv: string[];
  nodeOptions: string | undefined;
  canExec: boolean;
}): string[] | null;
