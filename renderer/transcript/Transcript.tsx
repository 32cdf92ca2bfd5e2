import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { useActions } from '../actions.ts';
import { groupReadOnly, sameRows, type TranscriptRow } from '../cards/read-groups.ts';
import { ReadGroupCard } from '../cards/ReadGroupCard.tsx';
import { ChangesCard } from '../changes/ChangesCard.tsx';
import { turnEnds } from '../changes/turn-ends.ts';
import { ToolCard } from '../cards/ToolCard.tsx';
import { SEND_MODIFIER, sendKeyName } from '../composer/composer-keys.ts';
import { usePanel } from '../store/store.ts';
import { useFollowBottom } from './follow.ts';
import { MessageRow } from './Messages.tsx';
import { useRewind } from '../rewind/rewind-store.ts';
import { TranscriptScroller } from './scroller-context.ts';

// The transcript, virtualised: only the rows near the viewport are in the DOM, so thousands of
// cards stay fast. It follows new output only while the person is at the bottom; scrolling up
// stops the following, and "Jump to latest" brings it back.

/** Whether find's row (`kind:id`) is this row, or a call folded into this group. */
function holds(row: TranscriptRow, key: string): boolean {
  return row.kind === 'group' ? row.ids.some((id) => `call:${id}` === key) : `${row.kind}:${row.id}` === key;
}

/** A row; the one find shows now is marked (renderer/find/). */
function RowFrame({ item }: { item: TranscriptRow }) {
  const key = `${item.kind}:${item.id}`;
  const found = usePanel((state) => (state.findRow ? holds(item, state.findRow.key) : false));
  // The last row of a finished turn with calls is followed by the turn's Changes card.
  const last = item.kind === 'group' ? `call:${item.ids.at(-1) ?? ''}` : key;
  // Not in a session only viewed here: its changes are its own workspace's to list and revert.
  const endsTurn = usePanel((state) => (state.viewOnly ? null : (turnEnds(state.transcript).get(last) ?? null)));
  return (
    <div className={found ? 'row find-current' : 'row'} data-row-key={key} data-find-current={found ? '' : undefined}>
      {item.kind === 'group' ? (
        <ReadGroupCard id={item.id} ids={item.ids} />
      ) : item.kind === 'call' ? (
        <ToolCard callId={item.id} />
      ) : (
        <MessageRow id={item.id} />
      )}
      {endsTurn === null ? null : <ChangesCard key={endsTurn} turnId={endsTurn} />}
    </div>
  );
}

/** The transcript's rows, consecutive read-only calls grouped; the same array while the rows are the same. */
function useRows(): TranscriptRow[] {
  const last = useRef<TranscriptRow[]>([]);
  return usePanel((state) => {
    const rows = groupReadOnly(state.transcript.order, state.transcript.calls);
    if (sameRows(rows, last.current)) return last.current;
    last.current = rows;
    return rows;
  });
}

function Row(_index: number, item: TranscriptRow) {
  return <RowFrame item={item} />;
}

/** Scrolls to the row find shows, wherever the person had scrolled to. */
function useScrollToFound(list: RefObject<VirtuosoHandle | null>, rows: readonly TranscriptRow[]) {
  const row = usePanel((state) => state.findRow);
  // Read when find moves, not a reason to scroll again whenever rows arrive.
  const shown = useRef(rows);
  shown.current = rows;
  useEffect(() => {
    if (!row) return;
    const index = shown.current.findIndex((candidate) => holds(candidate, row.key));
    if (index >= 0) list.current?.scrollToIndex({ index, align: 'center' });
  }, [row, list]);
}

/** A quiet "working" line at the end while the turn runs and nothing else shows it. */
function WorkingFooter() {
  const working = usePanel((state) => {
    const { activeTurnId, order, calls, messages } = state.transcript;
    if (activeTurnId === null) return false;
    const last = order[order.length - 1];
    if (last?.kind === 'call') return calls[last.id]?.state !== 'running';
    const message = last ? messages[last.id] : undefined;
    return !((message?.kind === 'assistant' || message?.kind === 'thinking') && message.streaming);
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

/** Above the first row of a long session: its older pages load as the person scrolls up, or on this button. */
function OlderHeader() {
  const older = usePanel((state) => state.olderEvents);
  const actions = useActions();
  if (!older) return null;
  return (
    <div className="row older-row">
      <button
        type="button"
        className="button older-events"
        data-testid="older-events"
        disabled={older.loading}
        onClick={() => void actions.loadOlderEvents()}
      >
        {older.loading ? 'Loading earlier events…' : `Show earlier events (${older.before} more)`}
      </button>
    </div>
  );
}

const components = { Header: OlderHeader, Footer: WorkingFooter };

/** Virtuoso's index of the first row; it goes down as older pages put rows in front, so the view stays put. */
const FIRST_ROW = 1_000_000_000;

const itemKey = (_index: number, item: TranscriptRow) => `${item.kind}:${item.id}`;

export function Transcript() {
  const order = usePanel((state) => state.transcript.order);
  const sessionId = usePanel((state) => state.session?.id ?? '');
  const sendKey = usePanel((state) => state.settings?.send_key ?? 'enter');
  const follow = useFollowBottom();
  // The scroller is also the one a large read group's own list scrolls with.
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const { scrollerRef: followScroller } = follow;
  const scrollerRef = useCallback(
    (element: HTMLElement | Window | null) => {
      followScroller(element);
      setScroller(element instanceof HTMLElement ? element : null);
    },
    [followScroller],
  );
  const { stopFollowing } = follow;
  const view = useMemo(() => ({ scroller, stopFollowing }), [scroller, stopFollowing]);
  const rewinding = useRewind((state) => state.asking !== null);
  const prepended = usePanel((state) => state.prependedRows);
  const olderCount = usePanel((state) => (state.olderEvents?.loading ? -1 : (state.olderEvents?.before ?? 0)));
  const actions = useActions();
  const list = useRef<VirtuosoHandle>(null);
  const rows = useRows();
  useScrollToFound(list, rows);
  // Older pages count transcript items; the list counts rows, where a group is one row.
  const prependedRows = useMemo(() => {
    if (prepended === 0) return 0;
    const { order: items, calls } = usePanel.getState().transcript;
    return rows.length - groupReadOnly(items.slice(prepended), calls).length;
  }, [rows, prepended]);
  // A modal dialog (the file viewer, a rewind) has the panel's attention: the pill waits behind it.
  const dialogOpen = usePanel((state) => state.fileViewer !== null) || rewinding;
  const { jumpToLatest } = follow;
  const jump = usePanel((state) => state.jumpToLatest);
  useEffect(() => {
    if (jump > 0) jumpToLatest();
  }, [jump, jumpToLatest]);

  if (order.length === 0) {
    return (
      <section className="transcript empty" data-testid="transcript" aria-label="Transcript">
        <p className="empty-hint">Ask for something to begin. {sendKeyName(sendKey, SEND_MODIFIER)} sends.</p>
      </section>
    );
  }
  return (
    <section className="transcript" data-testid="transcript" aria-label="Transcript" data-older={olderCount}>
      <TranscriptScroller.Provider value={view}>
        <Virtuoso
          key={sessionId}
          ref={list}
          scrollerRef={scrollerRef}
          className="transcript-scroller"
          data={rows}
          firstItemIndex={FIRST_ROW - prependedRows}
          startReached={() => void actions.loadOlderEvents()}
          computeItemKey={itemKey}
          itemContent={Row}
          components={components}
          followOutput={follow.followOutput}
          totalListHeightChanged={follow.onHeightChanged}
          atBottomStateChange={follow.onAtBottom}
          atBottomThreshold={64}
          initialTopMostItemIndex={{ index: 'LAST', align: 'end' }}
          increaseViewportBy={{ top: 600, bottom: 600 }}
        />
      </TranscriptScroller.Provider>
      {follow.atBottom || dialogOpen ? null : (
        <button type="button" className="jump-latest button" data-testid="jump-latest" onClick={jumpToLatest}>
          Jump to latest ↓
        </button>
      )}
    </section>
  );
}
