import { useEffect, useRef, useState } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { ToolCard } from '../cards/ToolCard.tsx';
import { usePanel } from '../store/store.ts';
import type { TranscriptItem } from '../store/transcript-types.ts';
import { MessageRow } from './Messages.tsx';

// The transcript, virtualised: only the rows near the viewport are in the DOM, so thousands of
// cards stay fast. It follows new output only while the person is at the bottom; scrolling up
// stops the following, and "Jump to latest" brings it back.

function Row(_index: number, item: TranscriptItem) {
  return <div className="row">{item.kind === 'call' ? <ToolCard callId={item.id} /> : <MessageRow id={item.id} />}</div>;
}

const follow = (atBottom: boolean): 'auto' | false => (atBottom ? 'auto' : false);

/** A quiet "working" line at the end while the turn runs and nothing else shows it. */
function WorkingFooter() {
  const working = usePanel((state) => {
    const { activeTurnId, order, calls, messages } = state.transcript;
    if (activeTurnId === null) return false;
    const last = order[order.length - 1];
    if (last?.kind === 'call') return calls[last.id]?.state !== 'running';
    const message = last ? messages[last.id] : undefined;
    return !(message?.kind === 'assistant' && message.streaming);
  });
  return (
    <div className="row working-row" aria-live="polite">
      {working ? (
        <span className="working" data-testid="turn-working">
          <span className="card-glyph glyph-running" aria-hidden="true" /> Working…
        </span>
      ) : null}
    </div>
  );
}

const components = { Footer: WorkingFooter };

const itemKey = (_index: number, item: TranscriptItem) => `${item.kind}:${item.id}`;

export function Transcript() {
  const order = usePanel((state) => state.transcript.order);
  const sessionId = usePanel((state) => state.session?.id ?? '');
  const handle = useRef<VirtuosoHandle>(null);
  const [atBottom, setAtBottom] = useState(true);
  const jump = usePanel((state) => state.jumpToLatest);
  useEffect(() => {
    if (jump > 0) handle.current?.scrollToIndex({ index: 'LAST', align: 'end', behavior: 'auto' });
  }, [jump]);

  if (order.length === 0) {
    return (
      <section className="transcript empty" data-testid="transcript" aria-label="Transcript">
        <p className="empty-hint">Ask for something to begin. Ctrl+Enter sends.</p>
      </section>
    );
  }
  return (
    <section className="transcript" data-testid="transcript" aria-label="Transcript">
      <Virtuoso
        key={sessionId}
        ref={handle}
        className="transcript-scroller"
        data={order}
        computeItemKey={itemKey}
        itemContent={Row}
        components={components}
        followOutput={follow}
        atBottomStateChange={setAtBottom}
        atBottomThreshold={64}
        initialTopMostItemIndex={{ index: 'LAST', align: 'end' }}
        increaseViewportBy={{ top: 600, bottom: 600 }}
      />
      {atBottom ? null : (
        <button type="button" className="jump-latest button" data-testid="jump-latest" onClick={() => handle.current?.scrollToIndex({ index: 'LAST', align: 'end', behavior: 'auto' })}>
          Jump to latest ↓
        </button>
      )}
    </section>
  );
}
