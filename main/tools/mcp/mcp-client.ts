import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationHandler } from './mcp-elicitation.ts';

// The MCP client the app presents to each server: its name, what it offers (forms, when someone
// answers them; the workspace as its one root), and how it hears that the tool list changed.

const CLIENT_INFO = { name: 'aethercodex', version: '0.1.0' };

export interface McpClientSetup {
  /** The server's name in mcp.json, handed to whoever answers its forms. */
  server: string;
  elicit?: ElicitationHandler;
  workspace?: string;
  /** The server announced `notifications/tools/list_changed`. */
  onToolsChanged(): void;
}

export function newMcpClient(setup: McpClientSetup): Client {
  const { elicit, workspace } = setup;
  const client = new Client(CLIENT_INFO, {
    capabilities: {
      // A form's defaults fill what its answer leaves out (the SDK applies them to the content).
      ...(elicit ? { elicitation: { form: { applyDefaults: true } } } : {}),
      // The workspace is the one root a server is told it works in.
      ...(workspace ? { roots: { listChanged: false } } : {}),
    },
    listChanged: {
      // Fetched here, not by the SDK after its 300 ms pause: a call's result waits for the new
      // list, so the model's next request already names a tool the call added.
      tools: { autoRefresh: false, debounceMs: 0, onChanged: () => setup.onToolsChanged() },
    },
  });
  if (workspace) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: pathToFileURL(workspace).href, name: path.basename(workspace) }],
    }));
  }
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      if (request.params.mode === 'url') return { action: 'decline' };
      return elicit(setup.server, request.params, extra.signal);
    });
  }
  return client;
}

/** Every page of a list a server gives in pages (tools, prompts, resources), until `limit` items or more. */
export async function allPages<Page extends { nextCursor?: string | undefined }, Item>(
  fetchPage: (params: { cursor?: string }) => Promise<Page>,
  items: (page: Page) => Item[],
  limit = Infinity,
): Promise<Item[]> {
  const all: Item[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor ? { cursor } : {});
    all.push(...items(page));
    cursor = page.nextCursor;
  } while (cursor && all.length < limit);
  return all;
}
