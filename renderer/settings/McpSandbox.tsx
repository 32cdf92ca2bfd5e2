import type { McpChange, McpSandboxView } from '../../protocol/mcp.ts';

// A command server's sandbox on the MCP servers screen: whether it runs in one (with the rules),
// outside (and who decided), or waits for a sandbox that cannot start here; the switch changes it
// (Space on the focused box), and the server starts again under the new choice.

const STATE_TEXT: Record<McpSandboxView['state'], string> = {
  sandboxed: 'sandboxed',
  outside: 'not sandboxed',
  unavailable: 'sandbox unavailable',
};

const STATE_BADGE: Record<McpSandboxView['state'], string> = {
  sandboxed: 'badge-ok',
  outside: 'badge-ask',
  unavailable: 'badge-error',
};

export function McpSandbox({
  server,
  sandbox,
  working,
  change,
}: {
  server: string;
  sandbox: McpSandboxView;
  working: boolean;
  change(key: string, request: McpChange): Promise<void>;
}) {
  const id = `mcp-sandbox-${server.replace(/[^\w-]/g, '_')}`;
  return (
    <div className="mcp-sandbox" data-testid="mcp-sandbox" data-state={sandbox.state}>
      <label className="mcp-switch">
        <input
          type="checkbox"
          data-testid="mcp-sandbox-switch"
          checked={sandbox.state !== 'outside'}
          disabled={working}
          aria-describedby={`${id}-detail`}
          onChange={(event) =>
            void change(`${server}:sandbox`, { action: 'sandbox', name: server, sandboxed: event.target.checked })
          }
        />
        Run in the sandbox
      </label>
      <span className={`badge ${STATE_BADGE[sandbox.state]}`} data-testid="mcp-sandbox-state" aria-live="polite">
        {STATE_TEXT[sandbox.state]}
      </span>
      <p id={`${id}-detail`} className="card-note mcp-sandbox-detail" data-testid="mcp-sandbox-detail">
        {sandbox.detail}
      </p>
    </div>
  );
}
