import { useState } from 'react';
import type { Result } from '../../protocol/api.ts';
import { errorMessage } from '../../protocol/errors.ts';
import { outsideLinkRefusal } from '../../protocol/links.ts';
import type { McpChange, McpScreen, McpSignInView } from '../../protocol/mcp.ts';

// A remote server's OAuth sign-in on the MCP servers screen: Sign in where the server asked for
// one, what is happening while the person is in the browser, and Sign out once tokens are kept.
// The desktop app opens the authorization page itself; in a browser (the web host) this page opens
// it in a new tab, and keeps a link to it in case the tab was blocked.

interface Props {
  server: string;
  signIn: McpSignInView;
  /** Who opens the authorization page: the host, or this page. */
  opens: McpScreen['sign_in_opens'];
  submit(request: McpChange): Promise<Result<McpScreen>>;
}

export function McpSignIn({ server, signIn, opens, submit }: Props) {
  const [busy, setBusy] = useState<'sign-in' | 'sign-out' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async (action: 'sign-in' | 'sign-out') => {
    setBusy(action);
    setError(null);
    try {
      const result = await submit({ action, name: server });
      if (!result.ok) return setError(result.error);
      const now = result.value.servers.find((entry) => entry.name === server)?.sign_in;
      if (action === 'sign-in' && opens === 'panel' && now?.state === 'waiting' && now.url) openPage(now.url);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  };

  if (signIn.state === 'unknown' && !error) return null;
  return (
    <div className="mcp-sign-in" data-testid="mcp-sign-in">
      {signIn.state === 'waiting' ? (
        <p className="card-note" role="status" data-testid="mcp-sign-in-status">
          {signIn.url ? 'Waiting for you to finish signing in in your browser…' : 'Finding where to sign in…'}
          {signIn.url ? (
            <>
              {' '}
              <a href={signIn.url} target="_blank" rel="noopener noreferrer" data-testid="mcp-sign-in-link">
                Open the sign-in page
              </a>
            </>
          ) : null}
        </p>
      ) : signIn.state === 'signed_in' ? (
        <>
          <span className="badge badge-ok" data-testid="mcp-sign-in-status">
            signed in
          </span>
          <button
            type="button"
            className="button small"
            data-testid="mcp-sign-out"
            disabled={busy !== null}
            onClick={() => void run('sign-out')}
          >
            {busy === 'sign-out' ? 'Signing out…' : 'Sign out'}
          </button>
        </>
      ) : (
        <>
          <span className="card-note" data-testid="mcp-sign-in-status">
            This server needs you to sign in (OAuth).
          </span>
          <button
            type="button"
            className="button small primary"
            data-testid="mcp-sign-in-button"
            disabled={busy !== null}
            onClick={() => void run('sign-in')}
          >
            {busy === 'sign-in' ? 'Opening the sign-in page…' : 'Sign in'}
          </button>
        </>
      )}
      {error ? (
        <p className="card-error" role="alert" data-testid="mcp-sign-in-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The authorization page in a new tab with no handle back to the panel; the press was the person's yes. */
function openPage(url: string): void {
  if (outsideLinkRefusal(url) === null) window.open(url, '_blank', 'noopener,noreferrer');
}
