import { terminalSafe } from './terminal-text.ts';

/** A session that could not be read, and where to find the ones there are: one line for stderr. */
export function sessionReadFailure(message: string, sessionsFlag: string | undefined): string {
  const list = `aether sessions${sessionsFlag ? ` --sessions ${sessionsFlag}` : ''}`;
  return `${terminalSafe(message)} ${list} lists the sessions there; --sessions DIR reads another folder.\n`;
}
