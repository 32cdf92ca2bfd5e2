import type { McpSandboxView } from '../../../protocol/mcp.ts';
import { describeSandbox } from '../../../protocol/sandbox.ts';
import { sandboxSupport, type SandboxSupport } from '../sandbox/sandbox-support.ts';
import { isStdio, serverSandbox, type McpServerConfig } from './mcp-config.ts';

// What the MCP servers screen says of a command server's sandbox: in it (its rules), outside it
// (and who decided), or meant to be in one that cannot start here (why, and how to enable one).

export function sandboxView(
  server: McpServerConfig,
  chosen: boolean | null,
  support: SandboxSupport = sandboxSupport(),
): McpSandboxView | null {
  const { transport } = server;
  if (!isStdio(transport)) return null;
  const chosenBy = chosen !== null ? 'person' : transport.sandbox !== undefined ? 'config' : 'default';
  const rules = serverSandbox(server, chosen);
  if (!rules) {
    const why = {
      person: 'You chose to run it outside the sandbox: it has your rights, as any program you start.',
      config: `Its entry in ${server.file} says "sandbox": false: it has your rights, as any program you start.`,
      default: `Your own servers run outside the sandbox unless their entry asks for one ("sandbox": {}): it has your rights, as any program you start.`,
    }[chosenBy];
    return { state: 'outside', detail: why, chosen_by: chosenBy };
  }
  if (!support.available)
    return {
      state: 'unavailable',
      detail: `It runs only in the sandbox, and none can start here: ${support.reason} ${support.fix} Until then it does not start, unless you run it outside.`,
      chosen_by: chosenBy,
    };
  return { state: 'sandboxed', detail: describeSandbox(rules), chosen_by: chosenBy };
}
