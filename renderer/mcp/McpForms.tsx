import { useEffect, useState } from 'react';
import { errorMessage } from '../../protocol/errors.ts';
import type { ElicitationView } from '../../protocol/elicitation.ts';
import { useActions } from '../actions.ts';
import { McpForm } from './McpForm.tsx';

// The forms MCP servers wait on during their tool calls, above the composer: each answered once
// (Accept, Decline, Cancel), gone when its server stops asking. The list comes from the app as it
// changes, and once when the panel opens (a form asked before the page was loaded).

export function McpForms() {
  const actions = useActions();
  const [forms, setForms] = useState<ElicitationView[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    const unsubscribe = actions.onMcpForms((next) => live && setForms(next));
    void actions
      .mcpForms()
      .then((result) => {
        if (!live) return;
        if (result.ok) setForms(result.value);
        else setError(result.error);
      })
      .catch((failure: unknown) => live && setError(errorMessage(failure)));
    return () => {
      live = false;
      unsubscribe();
    };
  }, [actions]);

  if (forms.length === 0 && !error) return null;
  return (
    <div className="mcp-forms" data-testid="mcp-forms">
      {error ? (
        <p className="card-error" role="alert">
          The forms MCP servers ask for could not be read: {error}
        </p>
      ) : null}
      {forms.map((form, index) => (
        <McpForm key={form.id} form={form} first={index === 0} />
      ))}
    </div>
  );
}
