import { useEffect, useState } from 'react';
import { useActions } from '../actions.ts';
import { describeAlwaysRule } from '../cards/always-scope.ts';
import { usePanel } from '../store/store.ts';

// What "Always for this session" answers allowed in the open session, each with Revoke: a revoked
// grant's calls ask again. The list is read when Settings opens and after each revoke.

export function SessionGrants() {
  const actions = useActions();
  const sessionId = usePanel((state) => state.session?.id ?? null);
  const [grants, setGrants] = useState<string[] | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void actions.sessionGrants().then((listed) => {
      if (current) setGrants(listed ?? []);
    });
    return () => {
      current = false;
    };
  }, [actions, sessionId]);

  const revoke = async (rule: string) => {
    const left = await actions.revokeGrant(rule);
    if (left === null) return;
    setGrants(left);
    setStatus(`Revoked: ${describeAlwaysRule(rule)} asks again.`);
  };

  return (
    <section className="session-grants" aria-labelledby="grants-title" data-testid="session-grants">
      <h3 id="grants-title">Allowed for this session</h3>
      {grants === null ? null : grants.length === 0 ? (
        <p className="card-note" data-testid="session-grants-empty">
          Nothing yet. “Always for this session” on an approval adds it here, until the session ends.
        </p>
      ) : (
        <ul className="grant-list">
          {grants.map((rule) => (
            <li key={rule} className="grant-item" data-testid="session-grant" data-rule={rule}>
              <span className="grant-text">
                {describeAlwaysRule(rule)} <code className="approval-rule">{rule}</code>
              </span>
              <button
                type="button"
                className="button small"
                data-testid="grant-revoke"
                aria-label={`Revoke: ${describeAlwaysRule(rule)}`}
                onClick={() => void revoke(rule)}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {status ? (
        <p className="card-note" role="status" data-testid="grant-status">
          {status}
        </p>
      ) : null}
    </section>
  );
}
