import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../../protocol/errors.ts';
import { McpConnection } from '../tools/mcp/mcp-connection.ts';
import { acceptDefaults, declineAll } from '../tools/mcp/mcp-elicitation.ts';
import { followAuthorization, MemoryOAuthStore, OAuthSignIn } from '../tools/mcp/mcp-oauth.ts';

// `aether mcp probe URL`: the app's own MCP client, once, against a remote server — it connects
// (initialize), lists the tools, calls one when asked, and closes — saying at each step what it
// did. The official conformance suite's client scenarios run it; a person can use it to see what
// a server offers before adding it to mcp.json.

export interface ProbeOptions {
  url: string;
  headers?: Record<string, string>;
  /** A tool to call once listed, with its arguments. */
  call?: { name: string; args: Record<string, unknown> };
  /** How the server's forms are answered: declined, or sent with their defaults where those fill them. */
  elicit: 'decline' | 'defaults';
  /**
   * A server that asks for OAuth: `browser` opens the person's browser with `open`, `follow` follows
   * the authorization page's redirects itself (an authorization server that grants without a person).
   * What it gets is kept in memory for this probe only.
   */
  signIn: { how: 'browser'; open(url: URL): Promise<void> } | { how: 'follow' };
  /** A client ID metadata document (an https URL), for authorization servers that take one. */
  clientMetadataUrl?: string;
  /** A client registered with the authorization server beforehand. */
  client?: { client_id: string; client_secret?: string };
  /** Each step as it happens, one line. */
  say(line: string): void;
  initializeTimeoutMs?: number;
}

/** Runs the probe; resolves true when every step worked, false after saying what failed. */
export async function probeMcpServer(options: ProbeOptions): Promise<boolean> {
  const { say } = options;
  const connection = new McpConnection(
    {
      name: new URL(options.url).host,
      origin: 'user',
      file: 'the command line',
      transport: { url: options.url, headers: options.headers ?? {} },
      disabled: false,
    },
    {
      elicit: async (server, request) => {
        const answer = await (options.elicit === 'defaults' ? acceptDefaults : declineAll)(server, request);
        say(
          `The server asked: ${request.message} — ${answer.action === 'accept' ? `sent ${JSON.stringify(answer.content)}` : 'declined'}`,
        );
        return answer;
      },
      oauth: (url) =>
        new OAuthSignIn(url, {
          store: new MemoryOAuthStore(),
          ...(options.clientMetadataUrl ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
          ...(options.client ? { client: options.client } : {}),
          open: async (page) => {
            say(`Signing in: ${page.origin}${page.pathname}`);
            const { signIn } = options;
            await (signIn.how === 'follow' ? followAuthorization(page) : signIn.open(page));
          },
        }),
      ...(options.initializeTimeoutMs ? { initializeTimeoutMs: options.initializeTimeoutMs } : {}),
    },
  );
  try {
    await connection.start();
    const server = connection.sdkClient?.getServerVersion();
    say(`Connected to ${options.url}${server ? `: ${server.name} ${server.version}` : ''}`);
    say(`Tools (${connection.tools.length}): ${connection.tools.map((tool) => tool.name).join(', ') || 'none'}`);
    if (options.call) {
      const { name, args } = options.call;
      const result = await connection.callTool(name, args, {
        signal: AbortSignal.timeout(60_000),
        onprogress: (progress) => say(`  progress ${progress.progress}${progress.total ? `/${progress.total}` : ''}`),
      });
      say(`${name}${result.isError ? ' failed' : ''}: ${resultText(result)}`);
      if (result.isError) return false;
    }
    return true;
  } catch (error) {
    say(errorMessage(error));
    return false;
  } finally {
    await connection.close();
  }
}

function resultText(result: CallToolResult): string {
  const parts = result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`));
  return parts.join(' ') || '(no content)';
}
