import type * as acp from '@agentclientprotocol/sdk';
import type { EditorTerminals } from '../agent/editor-terminals.ts';
import type { AcpClient } from './acp-session.ts';

// The client's terminals, as ACP intends, where it declares them at initialize
// (`clientCapabilities.terminal`): `exec`'s foreground commands run in `terminal/create`'s
// terminal, which is shown on the call (`tool_call_update` with the terminal as its content) while
// it runs; `terminal/wait_for_exit`, `terminal/output`, `terminal/kill` and `terminal/release` do
// the rest (agent/editor-terminals.ts).

/** The terminals of a client that declared them, for the session `sessionId` names; null otherwise. */
export function clientTerminals(
  capabilities: acp.ClientCapabilities | undefined,
  client: AcpClient,
  sessionId: () => string,
): EditorTerminals | null {
  if (capabilities?.terminal !== true) return null;
  return {
    create: async ({ callId, ...request }) => {
      const { terminalId } = await client.request('terminal/create', { sessionId: sessionId(), ...request });
      const ids = (): acp.TerminalOutputRequest => ({ sessionId: sessionId(), terminalId });
      // The terminal is on the call before anything can release it, as ACP asks.
      await client.notify('session/update', {
        sessionId: sessionId(),
        update: {
          sessionUpdate: 'tool_call_update',
          toolCallId: callId,
          content: [{ type: 'terminal', terminalId }],
        },
      });
      return {
        output: async () => {
          const kept = await client.request('terminal/output', ids());
          return { output: kept.output, truncated: kept.truncated };
        },
        waitForExit: async () => {
          const exit = await client.request('terminal/wait_for_exit', ids());
          return { exitCode: exit.exitCode ?? null, signal: exit.signal ?? null };
        },
        kill: async () => void (await client.request('terminal/kill', ids())),
        release: async () => void (await client.request('terminal/release', ids())),
      };
    },
  };
}
