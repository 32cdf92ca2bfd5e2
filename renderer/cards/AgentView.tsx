import { useEffect, useMemo, useState } from 'react';
import {
  agentEchoSchema,
  agentEndingWords,
  agentSummaryLine,
  compactCount,
  formatCost,
  type AgentStatus,
} from '../../protocol/agents.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { useActions } from '../actions.ts';
import { reduceStatusEvents } from '../store/transcript-reducer.ts';
import { emptyTranscript, type ToolCallView, type TranscriptState } from '../store/transcript-types.ts';
import { SafeText } from '../text/SafeText.tsx';
import { Markdown } from '../transcript/Markdown.tsx';
import { decodeEcho } from './echo.ts';
import { Unfinished } from './parts.tsx';
import { CardFrame } from './ToolCard.tsx';
import type { CardBodyProps, CardView } from './view.ts';

// An `agent` call's card: its task, what the child is doing while it runs (the tool it is in, its
// steps, tokens and cost), then its answer and a line of what it did. Its transcript unfolds in
// place, read from the child's own session file, with the same cards as the parent's: in a side
// panel's width a view of its own would lose the parent the person is following.

function AgentBody({ call }: CardBodyProps) {
  const echo = decodeEcho(call.echo, agentEchoSchema);
  const live = call.progress?.agent;
  const task = echo?.task ?? call.description?.detail ?? '';
  const session = echo?.session ?? live?.session ?? '';
  // A call a crash cut short has no echo naming its child: the child is found by the call.
  const child = session ? { session } : call.state !== 'running' && !echo ? { call_id: call.call_id } : null;
  return (
    <div className="agent-card" data-testid="agent-card">
      <p className="agent-task" data-testid="agent-task" title={task}>
        <SafeText text={task} />
      </p>
      {call.state === 'running' ? <AgentLive status={live} /> : null}
      {echo ? (
        <>
          <div className="agent-answer" data-testid="agent-answer">
            <Markdown text={echo.answer} />
          </div>
          <p className={`agent-summary is-${echo.ending}`} data-testid="agent-summary">
            {echo.agent} {agentEndingWords(echo.ending)} · {agentSummaryLine(echo)}
          </p>
        </>
      ) : (
        <Unfinished call={call} />
      )}
      {child ? <AgentTranscript child={child} running={call.state === 'running'} steps={live?.steps ?? -1} /> : null}
    </div>
  );
}

function AgentLive({ status }: { status: AgentStatus | undefined }) {
  if (!status) return <p className="card-note">Starting the agent…</p>;
  const tokens = compactCount(status.input_tokens + status.output_tokens);
  const parts = [
    `step ${status.steps + 1}`,
    `${tokens} tokens`,
    ...(status.cost !== undefined ? [formatCost(status.cost)] : []),
  ];
  return (
    <p className="agent-live" data-testid="agent-live" aria-live="polite">
      <span className="agent-live-tool">
        <SafeText text={status.tool ?? 'Thinking'} />
      </span>
      <span className="agent-live-figures">{parts.join(' · ')}</span>
    </p>
  );
}

/**
 * The child's transcript, folded until asked for; read again as the child takes its steps. One found
 * by its call (cut short by a crash) is looked for at once, and offered only when there is one.
 */
function AgentTranscript(props: { child: { session: string } | { call_id: string }; running: boolean; steps: number }) {
  const { running, steps } = props;
  const actions = useActions();
  const [open, setOpen] = useState(false);
  const [read, setRead] = useState<{ events: StatusEvent[] } | { error: string } | null>(null);
  const byCall = 'call_id' in props.child;
  const key = 'call_id' in props.child ? `call:${props.child.call_id}` : props.child.session;
  const { child } = props;
  useEffect(() => {
    if (!open && !byCall) return undefined;
    let current = true;
    void actions.agentTranscript(child).then((result) => {
      if (current) setRead(result.ok ? { events: result.value } : { error: result.error });
    });
    return () => {
      current = false;
    };
    // `child` is known by `key`: a new object each render must not read it again.
  }, [actions, open, key, byCall, running, steps]);
  const transcript = useMemo(
    () => (read && 'events' in read ? reduceStatusEvents(emptyTranscript(), read.events) : null),
    [read],
  );
  if (byCall && (read === null || 'error' in read)) return null;
  return (
    <div className="agent-transcript">
      <button
        type="button"
        className="link-button"
        aria-expanded={open}
        data-testid="agent-transcript-toggle"
        onClick={() => setOpen(!open)}
      >
        {open ? 'Hide the agent’s transcript' : 'Show the agent’s transcript'}
      </button>
      {open ? (
        <div
          className="agent-transcript-body"
          data-testid="agent-transcript"
          role="region"
          aria-label="The agent’s transcript"
        >
          {read === null ? <p className="card-note">Loading…</p> : null}
          {read && 'error' in read ? (
            <p className="card-error">
              <SafeText text={read.error} />
            </p>
          ) : null}
          {transcript ? <ChildRows transcript={transcript} /> : null}
        </div>
      ) : null}
    </div>
  );
}

function ChildRows({ transcript }: { transcript: TranscriptState }) {
  return (
    <>
      {transcript.order.map((item) => {
        if (item.kind === 'call') {
          const call = transcript.calls[item.id];
          return call ? <CardFrame key={`call:${item.id}`} call={asChildCall(call)} /> : null;
        }
        const message = transcript.messages[item.id];
        // The task as the child got it: a review's carries the turn's changes besides the card's task.
        if (message?.kind === 'user')
          return (
            <details key={item.id} className="agent-child-task" data-testid="agent-child-task">
              <summary className="card-note">Task given</summary>
              <pre className="agent-child-task-text">
                <SafeText text={message.text} />
              </pre>
            </details>
          );
        if (message?.kind === 'assistant' && message.text.trim() !== '')
          return (
            <div key={item.id} className="agent-child-text" data-testid="agent-child-text">
              <Markdown text={message.text} />
            </div>
          );
        if (message?.kind === 'notice')
          return (
            <p key={item.id} className="card-note">
              <SafeText text={message.text} />
            </p>
          );
        return null;
      })}
    </>
  );
}

/** A child's card is for reading: its code goes back with its parent's `agent` card (a rewind from there). */
function asChildCall(call: ToolCallView): ToolCallView {
  const { may_change_workspace: _rewindable, ...rest } = call;
  return rest;
}

export const agentView: CardView = {
  name: 'agent',
  Body: AgentBody,
  isEmpty: () => false,
};
