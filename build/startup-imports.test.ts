import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startupPackages } from './startup-imports.ts';

const root = path.resolve(import.meta.dirname, '..');

/** The MCP SDK's modules `entry` loads as it starts, each with the sources that lead to it. */
async function mcpSdkAtStart(entry: string): Promise<string[]> {
  const packages = await startupPackages(path.join(root, entry));
  return [...packages]
    .filter(([name]) => name.startsWith('@modelcontextprotocol/sdk'))
    .map(([name, chain]) => `${chain.map((file) => path.relative(root, file)).join(' → ')} → ${name}`);
}

describe('what a host loads as it starts', () => {
  // The SDK, its own zod, ajv and its transports were about a third of the modules `aether serve`
  // loaded; they load with the first MCP server that starts (mcp-servers.ts).
  it.each(['main/cli/serve-command.ts', 'main/cli/run-command.ts', 'main/acp/acp-agent.ts'])(
    '%s loads no part of the MCP SDK before a server starts',
    async (entry) => {
      expect(await mcpSdkAtStart(entry)).toEqual([]);
    },
  );

  it('names the chain of sources that loads a package, past the imports of types alone', async () => {
    // mcp-connection.ts imports the SDK's Client as a type; mcp-client.ts loads it.
    expect(await mcpSdkAtStart('main/tools/mcp/mcp-connection.ts')).toContain(
      'main/tools/mcp/mcp-connection.ts → main/tools/mcp/mcp-client.ts → @modelcontextprotocol/sdk/client/index.js',
    );
  });
});
