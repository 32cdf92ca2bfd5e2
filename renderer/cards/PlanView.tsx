import { useState } from 'react';
import { planEchoSchema } from '../../protocol/plan.ts';
import { PERMISSION_MODES, type PermissionMode } from '../../protocol/values.ts';
import { useActions } from '../actions.ts';
import { focusMessageBox } from '../focus.ts';
import { usePanel } from '../store/store.ts';
import { Markdown } from '../transcript/Markdown.tsx';
import { decodeEcho } from './echo.ts';
import { genericView } from './GenericView.tsx';
import { TODO_MARK, TODO_STATE } from './TodosView.tsx';
import type { CardBodyProps, CardView } from './view.ts';
import '../styles/todos.css';

// A plan the model proposed (plan_propose): the plan, its todos, and the person's three answers —
// Approve and start (in the mode chosen), Revise (a note back to the model, still planning), Keep
// planning (no answer yet; the message box is yours — a durable `plan_kept`, so a reload or a resume
// shows the card answered too).

const START_MODES = PERMISSION_MODES.filter((mode) => mode !== 'plan');

function PlanBody({ call }: CardBodyProps) {
  const echo = decodeEcho(call.echo, planEchoSchema);
  const approved = usePanel((state) => state.transcript.approvedPlans.includes(call.call_id));
  const kept = usePanel((state) => state.transcript.keptPlans.includes(call.call_id));
  const running = usePanel((state) => state.transcript.activeTurnId !== null);
  const viewOnly = usePanel((state) => state.viewOnly);
  const actions = useActions();
  const [mode, setMode] = useState<PermissionMode>('ask');
  const [revising, setRevising] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!echo) return <genericView.Body call={call} />;
  const answerable = !approved && !running && !viewOnly && !kept;
  return (
    <div className="plan-card" data-testid="plan-card">
      <Markdown text={echo.plan} />
      {echo.todos.length > 0 ? (
        <ul className="todo-card-list">
          {echo.todos.map((item) => (
            <li key={item.id} className={`todo-item todo-${item.status}`}>
              <span className="todo-mark" aria-label={TODO_STATE[item.status]}>
                {TODO_MARK[item.status]}
              </span>
              <span className="todo-text">{item.text}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {approved ? (
        <p className="card-note" data-testid="plan-approved">
          Approved: the work started from this plan.
        </p>
      ) : null}
      {kept && !approved ? (
        <p className="card-note" data-testid="plan-kept">
          Kept planning: tell the model what to look at or change next.
        </p>
      ) : null}
      {answerable && revising === null ? (
        <div className="plan-actions">
          <label className="plan-mode">
            then
            <select
              data-testid="plan-mode"
              aria-label="Permission mode to work in"
              value={mode}
              onChange={(event) => setMode(event.target.value as PermissionMode)}
            >
              {START_MODES.map((entry) => (
                <option key={entry} value={entry}>
                  {entry}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="button small primary"
            data-testid="plan-approve"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              void actions.approvePlan(call.call_id, echo.plan, echo.todos, mode).finally(() => setBusy(false));
            }}
          >
            Approve and start
          </button>
          <button type="button" className="button small" data-testid="plan-revise" onClick={() => setRevising('')}>
            Revise
          </button>
          <button
            type="button"
            className="button small"
            data-testid="plan-keep"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              void actions.keepPlanning(call.call_id).then((done) => {
                setBusy(false);
                if (done) focusMessageBox();
              });
            }}
          >
            Keep planning
          </button>
        </div>
      ) : null}
      {answerable && revising !== null ? (
        <div className="plan-revise">
          <textarea
            data-testid="plan-revise-note"
            aria-label="What to change in the plan"
            rows={2}
            autoFocus
            value={revising}
            onChange={(event) => setRevising(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.preventDefault();
                setRevising(null);
              }
            }}
          />
          <button
            type="button"
            className="button small primary"
            data-testid="plan-revise-send"
            disabled={revising.trim() === '' || busy}
            onClick={() => {
              setBusy(true);
              void actions.send(`Revise the plan: ${revising.trim()}`).then((sent) => {
                setBusy(false);
                if (sent) setRevising(null);
              });
            }}
          >
            Send
          </button>
          <button type="button" className="button small" onClick={() => setRevising(null)}>
            Cancel
          </button>
        </div>
      ) : null}
    </div>
  );
}

export const planView: CardView = {
  name: 'plan',
  Body: PlanBody,
  isEmpty: () => false,
};
