import { errorMessage } from '../../../protocol/errors.ts';
import type { McpConnection } from './mcp-connection.ts';

// A server that was lost (it exited, or its link broke) is started again by the next call that
// needs it, but not before a pause that doubles with each failed start, from 1 s up to 30 s.

const FIRST_RESTART_MS = 1_000;
const LONGEST_RESTART_MS = 30_000;

export class RestartPauses {
  private readonly pauses = new Map<string, { pauseMs: number; notBefore: number }>();

  /** The server was lost or failed to start again: its next start waits a longer pause. */
  lost(name: string): void {
    const previous = this.pauses.get(name);
    const pauseMs = previous ? Math.min(previous.pauseMs * 2, LONGEST_RESTART_MS) : FIRST_RESTART_MS;
    this.pauses.set(name, { pauseMs, notBefore: Date.now() + pauseMs });
  }

  /** A fresh connection was asked for by the person: no pause is left. */
  forget(name: string): void {
    this.pauses.delete(name);
  }

  /** Starts a lost server again once its pause is over; sooner, the call fails saying when to retry. */
  async restart(connection: McpConnection): Promise<void> {
    const { name } = connection.config;
    const pause = this.pauses.get(name);
    const wait = pause ? pause.notBefore - Date.now() : 0;
    if (wait > 0) {
      throw new Error(
        `${connection.failure ?? `The MCP server "${name}" is not running.`}\nIt is restarted in ${Math.ceil(wait / 1000)} s; call again then.`,
      );
    }
    try {
      await connection.start();
    } catch (error) {
      this.lost(name);
      throw new Error(errorMessage(error), { cause: error });
    }
  }
}
