import { useCallback, useEffect, useState } from 'react';
import type { Result } from '../../protocol/api.ts';
import { errorMessage } from '../../protocol/errors.ts';
import type { McpChange, McpScreen, McpServerStatus, McpServerView, McpToolView } from '../../protocol/mcp.ts';
import { useActions } from '../actions.ts';
import { McpSandbox } from './McpSandbox.tsx';
import { McpSecretField } from './McpSecretField.tsx';
import { McpSignIn } from './McpSignIn.tsx';

// The MCP servers screen (a section of Settings): each configured server with its status, why it
// failed or waits, Restart, a switch for the whole server, a command server's sandbox, its tools with a switch and allow / ask /
// deny each, the secrets its configuration names, and its stderr. Workspace servers wait here for "Approve and start", which names the
// command they run.

const STATUS_TEXT: Record<McpServerStatus, string> = {
  stopped: 'stopped',
  starting: 'starting…',
  ready: 'ready',
  failed: 'failed',
  disabled: 'disabled',
  unapproved: 'waiting for your approval',
};

const STATUS_BADGE: Partial<Record<McpServerStatus, string>> = {
  ready: 'badge-ok',
  failed: 'badge-error',
  unapproved: 'badge-ask',
};

/** While the section is open it follows servers that start, crash and restart. */
const REFRESH_MS = 2_000;

export function McpServersSection() {
  const actions = useActions();
  const [screen, setScreen] = useState<McpScreen | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const take = useCallback((result: Awaited<ReturnType<typeof actions.mcpServers>>) => {
    if (result.ok) {
      setScreen(result.value);
      setError(null);
    } else {
      setError(result.error);
    }
  }, []);

  useEffect(() => {
    let live = true;
    const load = () =>
      void actions
        .mcpServers()
        .then((result) => live && take(result))
        .catch((error: unknown) => live && setError(errorMessage(error)));
    load();
    const timer = window.setInterval(load, REFRESH_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [actions, take]);

  /** A change whose outcome the caller shows itself (a secret field says saved or why not). */
  const submit = async (request: McpChange) => {
    const result = await actions.mcpServers(request);
    if (result.ok) take(result);
    return result;
  };

  const change = async (key: string, request: McpChange) => {
    setBusy(key);
    try {
      take(await actions.mcpServers(request));
    } catch (error) {
      setError(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="mcp-servers" aria-labelledby="mcp-servers-title" data-testid="mcp-servers">
      <h3 id="mcp-servers-title" tabIndex={-1}>
        MCP servers
      </h3>
      {error ? (
        <p className="card-error" role="alert" data-testid="mcp-servers-error">
          {error}
        </p>
      ) : null}
      {screen ? (
        <>
          <p className="card-note">
            Defined in <code>{screen.files.user}</code> (yours) and <code>{screen.files.workspace}</code> (this
            workspace&apos;s) as <code>{'{"mcpServers": {…}}'}</code>. Servers start with a session&apos;s first
            message; a workspace server waits for your approval of its command.
          </p>
          {screen.problems.map((problem) => (
            <p key={problem} className="card-error" data-testid="mcp-problem">
              {problem}
            </p>
          ))}
          {screen.servers.length === 0 ? <p className="card-note">No MCP server is configured.</p> : null}
          {screen.servers.map((server) => (
            <ServerEntry
              key={server.name}
              server={server}
              busy={busy}
              change={change}
              submit={submit}
              storable={screen.secrets_storable}
              opens={screen.sign_in_opens}
            />
          ))}
        </>
      ) : error ? null : (
        <p className="card-note">Loading MCP servers…</p>
      )}
    </section>
  );
}

interface EntryProps {
  busy: string | null;
  change(key: string, request: McpChange): Promise<void>;
}

interface ServerProps extends EntryProps {
  server: McpServerView;
  submit(request: McpChange): Promise<Result<McpScreen>>;
  storable: boolean;
  opens: McpScreen['sign_in_opens'];
}

function ServerEntry({ server, busy, change, submit, storable, opens }: ServerProps) {
  const { name, status } = server;
  const id = `mcp-${name.replace(/[^\w-]/g, '_')}`;
  const working = busy !== null && busy.startsWith(`${name}:`);
  return (
    <article className="mcp-server" aria-labelledby={`${id}-name`} data-testid={`mcp-server-${name}`}>
      <div className="mcp-server-head">
        <h4 id={`${id}-name`}>{name}</h4>
        <span className="badge">{server.origin === 'workspace' ? 'workspace' : 'yours'}</span>
        <span className={`badge ${STATUS_BADGE[status] ?? ''}`} data-testid="mcp-status" aria-live="polite">
          {STATUS_TEXT[status]}
        </span>
      </div>
      <code className="mcp-command" title={server.file}>
        {server.command}
      </code>
      {server.failure ? (
        <pre className="card-error mcp-failure" data-testid="mcp-failure">
          {server.failure}
        </pre>
      ) : null}
      <div className="mcp-server-actions">
        {status === 'unapproved' ? (
          <button
            type="button"
            className="button small primary"
            data-testid="mcp-approve"
            disabled={working}
            onClick={() => void change(`${name}:approve`, { action: 'approve', name })}
          >
            Approve and start
          </button>
        ) : null}
        <label className="mcp-switch">
          <input
            type="checkbox"
            data-testid="mcp-enabled"
            checked={status !== 'disabled'}
            disabled={working}
            onChange={(event) =>
              void change(`${name}:enable`, { action: 'enable', name, enabled: event.target.checked })
            }
          />
          Enabled
        </label>
        <button
          type="button"
          className="button small"
          data-testid="mcp-restart"
          disabled={working || status === 'disabled' || status === 'unapproved'}
          onClick={() => void change(`${name}:restart`, { action: 'restart', name })}
        >
          {busy === `${name}:restart` ? 'Starting…' : status === 'stopped' ? 'Start' : 'Restart'}
        </button>
      </div>
      {server.sandbox ? <McpSandbox server={name} sandbox={server.sandbox} working={working} change={change} /> : null}
      {server.sign_in && status !== 'disabled' ? (
        <McpSignIn server={name} signIn={server.sign_in} opens={opens} submit={submit} />
      ) : null}
      {server.secrets.map((secret) => (
        <McpSecretField key={secret.name} server={name} secret={secret} storable={storable} submit={submit} />
      ))}
      {server.tools.length > 0 ? (
        <ul className="mcp-tools" aria-label={`Tools of ${name}`}>
          {server.tools.map((tool) => (
            <ToolEntry key={tool.name} server={name} tool={tool} busy={busy} change={change} />
          ))}
        </ul>
      ) : status === 'ready' ? (
        <p className="card-note">This server offers no tools.</p>
      ) : null}
      <details className="mcp-stderr">
        <summary>Server log (stderr)</summary>
        <pre data-testid="mcp-stderr">{server.stderr.trim() || 'Nothing written yet.'}</pre>
      </details>
    </article>
  );
}

function ToolEntry({ server, tool, busy, change }: EntryProps & { server: string; tool: McpToolView }) {
  const key = `${server}:tool:${tool.name}`;
  const id = `mcp-tool-${server}-${tool.name}`.replace(/[^\w-]/g, '_');
  const request = (patch: { enabled?: boolean; policy?: McpToolView['policy'] }): McpChange => ({
    action: 'tool',
    server,
    tool: tool.name,
    ...patch,
  });
  return (
    <li className="mcp-tool" data-testid={`mcp-tool-${tool.name}`}>
      <input
        type="checkbox"
        id={id}
        checked={tool.enabled}
        disabled={busy === key}
        aria-describedby={`${id}-what`}
        onChange={(event) => void change(key, request({ enabled: event.target.checked }))}
      />
      <label htmlFor={id} className="mcp-tool-name" title={tool.full_name}>
        {tool.name}
      </label>
      <select
        aria-label={`Permission for ${tool.name}`}
        data-testid="mcp-tool-policy"
        value={tool.policy ?? ''}
        disabled={busy === key || !tool.enabled}
        onChange={(event) => {
          const value = event.target.value;
          void change(
            key,
            request({ policy: value === 'allow' || value === 'ask' || value === 'deny' ? value : null }),
          );
        }}
      >
        <option value="">{tool.read_only ? 'Default: runs (read-only)' : 'Default: asks'}</option>
        <option value="allow">Allow</option>
        <option value="ask">Ask</option>
        <option value="deny">Deny</option>
      </select>
      <p id={`${id}-what`} className="card-note mcp-tool-what">
        {tool.destructive ? 'May change or delete data. ' : ''}
        {tool.description || 'No description.'}
      </p>
    </li>
  );
}
