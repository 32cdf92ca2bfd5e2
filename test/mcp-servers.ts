import { createRequire } from 'node:module';
import path from 'node:path';

// The MCP servers tests start over stdio with this project's node: two from npm, one fixture.

const require = createRequire(import.meta.url);
export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
export const FIXTURE = path.resolve(import.meta.dirname, 'mcp-fixture-server.ts');

export async function waitFor(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('The condition did not come true in time.');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
