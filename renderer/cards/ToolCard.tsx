import { memo, useEffect, useRef, useState, type Ref } from 'react';
import { errorMessage } from '../../protocol/errors.ts';
import type { ToolContent } from '../../protocol/api.ts';
import { useActions } from '../actions.ts';
import { useRefocusOnChange } from '../focus.ts';
import { usePanel } from '../store/store.ts';
import type { ToolCallView } from '../store/transcript-types.ts';
import { ApprovalPrompt } from './ApprovalPrompt.tsx';
import { HookLines } from './HookLines.tsx';
import { ModelImages } from './ModelImages.tsx';
import { formatDuration } from '../../protocol/format.ts';
import { noteOfDenial } from '../../protocol/review.ts';
import { errorText } from './echo.ts';
import { cardViewFor, showsDone } from './registry.ts';
import { Elapsed } from './Elapsed.tsx';
import { disambiguatingFolder } from './subtitle-paths.ts';
import { SafeText } from '../text/SafeText.tsx';
import { CardSubtitle } from './CardSubtitle.tsx';
import { RewindMenu } from '../rewind/RewindMenu.tsx';
import { revealText } from '../text/safe-text.ts';

// The frame every card shares: header (tool, subtitle, running glyph, then the time), the gate's
// questions, the view's body or the minimal `✓ ok`, and the model-facing content on demand.

const STATE_LABEL: Record<ToolCallView['state'], string> = {
  running: 'running',
  done: 'finished',
  error: 'failed',
  interrupted: 'interrupted',
};

function FullContentToggle({
  open,
  onToggle,
  ref,
}: {
  open: boolean;
  onToggle: () => void;
  ref?: Ref<HTMLButtonElement>;
}) {
  return (
    <button
      ref={ref}
      type="button"
      className="icon-button"
      aria-expanded={open}
      aria-label={open ? 'Hide what the model received' : 'Show what the model received'}
      title="What the model received"
      data-testid="full-content-button"
      onClick={onToggle}
    >
      <span aria-hidden="true">{'{…}'}</span>
      <span className="icon-button-label">What the model received</span>
    </button>
  );
}

/**
 * Stops this call alone (the turn goes on, the model hears it was cancelled); Esc stops the turn.
 * Disabled while the request is out; a refusal shows in the error banner and the button comes back.
 */
function StopCallButton({ callId, onPress }: { callId: string; onPress: () => void }) {
  const actions = useActions();
  const [stopping, setStopping] = useState(false);
  const onClick = () => {
    onPress();
    setStopping(true);
    void actions.cancel(callId).then((cancelled) => {
      if (!cancelled) setStopping(false);
    });
  };
  return (
    <button
      type="button"
      className="button small danger"
      data-testid="card-stop"
      title="Stop this call; the turn goes on"
      disabled={stopping}
      onClick={onClick}
    >
      {stopping ? 'Stopping…' : 'Stop'}
    </button>
  );
}

type Fetched = { ok: true; value: ToolContent } | { ok: false; error: string } | null;

/** Exactly what the model received for this call, fetched from the main process when opened. */
function FullContentPanel({ callId }: { callId: string }) {
  const actions = useActions();
  const [content, setContent] = useState<Fetched>(null);
  useEffect(() => {
    let live = true;
    actions
      .toolContent(callId)
      .then((fetched) => live && setContent(fetched))
      .catch((error: unknown) => live && setContent({ ok: false, error: errorMessage(error) }));
    return () => {
      live = false;
    };
  }, [actions, callId]);
  return (
    <section className="full-content" data-testid="full-content" aria-label="What the model received">
      <h4 className="full-content-title">What the model received</h4>
      {content === null ? (
        <p className="card-note">Loading…</p>
      ) : content.ok ? (
        <>
          <pre>
            <SafeText text={content.value.content} />
          </pre>
          {content.value.images?.length ? <ModelImages images={content.value.images} /> : null}
        </>
      ) : (
        <pre className="card-error">
          <SafeText text={content.error} />
        </pre>
      )}
    </section>
  );
}

/** A card's place in a feed of cards (an opened read group): the screen reader's "5 of 249". */
export interface FeedPlace {
  posInSet: number;
  setSize: number;
}

export function CardFrame({ call, place }: { call: ToolCallView; place?: FeedPlace }) {
  const view = cardViewFor(call);
  const subtitle = call.description?.subtitle ?? '';
  // An MCP tool is named once: `server › tool` as the title, not beside `mcp__server__tool`.
  const titled = view.titledBySubtitle === true && subtitle !== '';
  const title = titled ? subtitle : call.name;
  const named = titled ? revealText(title) : `${call.name}${subtitle ? ` ${revealText(subtitle)}` : ''}`;
  const folder = usePanel((state) => disambiguatingFolder(state.transcript.calls, call));
  const done = showsDone(call, view);
  const running = call.state === 'running';
  const pending = call.approvals.some((approval) => approval.answer === undefined);
  // A call the person refused at its own question failed for that reason alone: the answer line
  // says it once, calmly (a choice, not a failure), and the card shows nothing more.
  const denied =
    call.state === 'error' &&
    call.approvals.some(
      (approval) => approval.call_id === call.call_id && approval.answer === 'deny' && !approval.stopped,
    );
  const denialNote = denied ? noteOfDenial(errorText(call)) : undefined;
  const { Body } = view;
  const [full, setFull] = useState(false);
  const fullToggle = useRef<HTMLButtonElement>(null);
  const [stopPressed, setStopPressed] = useState(false);
  // The Stop the person pressed goes away with the call: focus stays in this card's header.
  useRefocusOnChange(running, fullToggle, !running && stopPressed);

  return (
    <article
      className={`card is-${denied ? 'denied' : call.state}${done ? ' is-done' : ''}`}
      data-testid="tool-card"
      data-tool={call.name}
      data-view={view.name}
      data-state={call.state}
      data-call-id={call.call_id}
      aria-label={`${named}, ${denied ? 'denied' : STATE_LABEL[call.state]}`}
      aria-busy={running}
      {...(place ? { 'aria-posinset': place.posInSet, 'aria-setsize': place.setSize, tabIndex: -1 } : {})}
    >
      <header className="card-header">
        <span
          className={`card-glyph glyph-${denied ? 'denied' : call.state}`}
          data-testid={running ? 'card-running' : 'card-glyph'}
          aria-hidden="true"
        />
        <span className="card-title" data-testid="card-title">
          {titled ? <SafeText text={title} /> : title}
        </span>
        {titled ? null : <CardSubtitle call={call} view={view} folder={folder} />}
        {done ? (
          <span className="done-mark" data-testid="card-done">
            ✓ ok
          </span>
        ) : null}
        <span className="card-spacer" />
        {pending ? <span className="badge badge-ask">needs approval</span> : null}
        {running && !pending ? <Elapsed since={call.started_at} testId="card-elapsed" /> : null}
        {running && view.stoppable && !pending ? (
          <StopCallButton callId={call.call_id} onPress={() => setStopPressed(true)} />
        ) : null}
        {call.execution_time !== undefined ? (
          <span className="card-time" data-testid="card-time">
            {formatDuration(call.execution_time)}
          </span>
        ) : null}
        {running || !call.may_change_workspace ? null : (
          <RewindMenu
            target={call.call_id}
            what={named}
            {...(call.rewind_unavailable ? { unavailable: call.rewind_unavailable } : {})}
          />
        )}
        {running ? null : <FullContentToggle ref={fullToggle} open={full} onToggle={() => setFull(!full)} />}
      </header>
      {call.approvals.length > 0 ? (
        <div className="card-approvals">
          {call.approvals.map((approval, index) => (
            <ApprovalPrompt
              key={`${approval.call_id}:${index}`}
              approval={approval}
              cardName={call.name}
              denialNote={approval.call_id === call.call_id ? denialNote : undefined}
            />
          ))}
        </div>
      ) : null}
      {call.hooks?.length ? <HookLines runs={call.hooks} /> : null}
      {done || denied ? null : (
        <div className="card-body">
          <Body call={call} />
        </div>
      )}
      {full ? <FullContentPanel callId={call.call_id} /> : null}
    </article>
  );
}

/** A card selected from the store by its call id; it re-renders only when that call changes. */
export const ToolCard = memo(function ToolCard({
  callId,
  posInSet,
  setSize,
}: {
  callId: string;
  /** Its place in a feed of cards, when it is one of them. */
  posInSet?: number;
  setSize?: number;
}) {
  const call = usePanel((state) => state.transcript.calls[callId]);
  if (!call) return null;
  return posInSet !== undefined && setSize !== undefined ? (
    <CardFrame call={call} place={{ posInSet, setSize }} />
  ) : (
    <CardFrame call={call} />
  );
});
