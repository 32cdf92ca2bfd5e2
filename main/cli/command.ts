import { parseArgs, type ParseArgsConfig } from 'node:util';
import { errorMessage } from '../../protocol/errors.ts';

export interface Command {
  /** One line: the command and its arguments. */
  usage: string;
  /** What `aether COMMAND --help` prints under the usage line: each option on a line of its own. */
  help?: string;
  run(argv: string[]): Promise<number>;
}

/** A mistake in how a command was called: exit code 2 with the usage line. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseCommandLine<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
}
