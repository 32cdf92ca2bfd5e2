import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import type { McpResourceMatch } from '../../../protocol/composer.ts';
import type { McpConnection } from './mcp-connection.ts';

// The ready servers' resources the composer offers after `@`: each server's list is asked for at
// most every 10 s, as the person types, and filtered by what they typed.

/** How long a server's resource list serves `@` before it is asked again. */
const RESOURCES_FRESH_MS = 10_000;

export class ResourceMatcher {
  private readonly listed = new Map<string, { at: number; resources: Resource[] }>();

  /** The resources of the ready servers whose server, name, title or URI holds `query`. */
  async matches(
    connections: ReadonlyMap<string, McpConnection>,
    query: string,
    limit: number,
    listMs: number,
  ): Promise<McpResourceMatch[]> {
    const q = query.toLowerCase();
    const lists = await Promise.all(
      [...connections].map(async ([name, connection]) => {
        const kept = this.listed.get(name);
        if (kept && Date.now() - kept.at < RESOURCES_FRESH_MS) return { name, resources: kept.resources };
        const resources = await connection.listResources(listMs).catch(() => [] as Resource[]);
        this.listed.set(name, { at: Date.now(), resources });
        return { name, resources };
      }),
    );
    const matches: McpResourceMatch[] = [];
    for (const { name: server, resources } of lists) {
      for (const resource of resources) {
        const shown = resource.title ?? resource.name;
        const haystack = `${server}:${shown} ${resource.name} ${resource.uri}`.toLowerCase();
        if (!haystack.includes(q)) continue;
        matches.push({
          server,
          uri: resource.uri,
          name: shown,
          description: resource.description ?? '',
          ...(resource.mimeType ? { mime_type: resource.mimeType } : {}),
        });
      }
    }
    return matches.slice(0, limit);
  }
}
