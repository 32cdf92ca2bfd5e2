import { memo, useContext, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { Virtuoso } from 'react-virtuoso';
import { useShallow } from 'zustand/react/shallow';
import { formatDuration } from '../../protocol/format.ts';
import { usePanel } from '../store/store.ts';
import type { ToolCallView } from '../store/transcript-types.ts';
import { SafeText } from '../text/SafeText.tsx';
import { basename } from './decode.ts';
import { useColoursAhead, whenIdle, type ColoursAhead } from './colours-ahead.ts';
import { GroupFeedContext, useGroupFeed, type GroupFeed } from './group-feed.ts';
import { warmHighlighter } from './highlight-client.ts';
import { languageFor } from './highlight.ts';
import { groupSummary } from './read-groups.ts';
import { cardViewFor } from './registry.ts';
import { TranscriptScroller } from '../transcript/scroller-context.ts';
import { ToolCard } from './ToolCard.tsx';

// One compact card for consecutive read-only calls (read-groups.ts): what they did in a sentence,
// the files they touched, and their own cards on demand.

/** A call as the group names it: its subtitle, and a read's lines when it read a part of the file. */
function callName(call: ToolCallView): string {
  const name = call.description?.subtitle ?? basename(call.description?.path ?? '');
  const note = cardViewFor(call).subtitleNote?.(call);
  return name && note ? `${name} ${note}` : name;
}

/** From this many calls an opened group draws only the cards near the view, as the transcript does. */
export const VIRTUAL_GROUP_FROM = 40;

/** One of the group's cards, told its place in the feed; it takes and gives back the focus (group-feed.ts). */
function GroupMember({ index, callId }: { index: number; callId: string }) {
  const feed = useContext(GroupFeedContext);
  const element = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const member = element.current;
    if (!feed || !member) return undefined;
    feed.drawn(index, member);
    return () => feed.leaving(index, member);
  }, [feed, index]);
  return (
    <div ref={element} className="read-group-member" data-member-index={index}>
      <ToolCard callId={callId} posInSet={index + 1} setSize={feed?.count ?? 1} />
    </div>
  );
}

const memberKey = (_index: number, callId: string) => callId;
const member = (index: number, callId: string) => <GroupMember index={index} callId={callId} />;

/**
 * Find's current hit, when it is one of the group's cards: once the transcript has brought the group
 * into view (its own scroll, the frame after), the group brings the card itself, drawn or not.
 */
function useShowFound(ids: readonly string[], feed: GroupFeed) {
  const found = usePanel((state) => state.findRow);
  const index = found ? ids.findIndex((id) => found.key === `call:${id}`) : -1;
  useEffect(() => {
    if (index < 0) return undefined;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => feed.reveal(index));
    });
    return () => cancelAnimationFrame(frame);
  }, [found, index, feed]);
}

/**
 * The group's own cards, a feed the keyboard moves through (group-feed.ts). A large group's list
 * scrolls with the transcript (the same scroller, the same virtualised list as its rows) and keeps
 * only the cards near the view.
 */
function GroupCards({
  ids,
  label,
  header,
  ahead,
}: {
  ids: readonly string[];
  label: string;
  header: RefObject<HTMLElement | null>;
  ahead: ColoursAhead;
}) {
  const { scroller } = useContext(TranscriptScroller);
  const feed = useGroupFeed(ids.length, header);
  const virtual = scroller !== null && ids.length >= VIRTUAL_GROUP_FROM;
  useShowFound(ids, feed);
  useEffect(() => {
    if (!virtual) ahead.drawn(0, ids.length - 1);
  }, [virtual, ahead, ids.length]);
  return (
    <GroupFeedContext.Provider value={feed}>
      <div
        ref={feed.feed}
        role="feed"
        className={virtual ? 'read-group-cards is-virtual' : 'read-group-cards'}
        data-testid="read-group-feed"
        aria-label={label}
        tabIndex={-1}
        onKeyDown={feed.onKeyDown}
      >
        {virtual ? (
          <Virtuoso
            ref={feed.list}
            data-testid="read-group-list"
            customScrollParent={scroller}
            data={ids}
            computeItemKey={memberKey}
            itemContent={member}
            increaseViewportBy={{ top: 400, bottom: 400 }}
            rangeChanged={(range) => ahead.drawn(range.startIndex, range.endIndex)}
          />
        ) : (
          ids.map((callId, index) => <GroupMember key={callId} index={index} callId={callId} />)
        )}
      </div>
    </GroupFeedContext.Provider>
  );
}

/** Groups the person opened, by their first call: the list draws rows again as they scroll back. */
const opened = new Set<string>();

export const ReadGroupCard = memo(function ReadGroupCard({ id, ids }: { id: string; ids: readonly string[] }) {
  const calls = usePanel(
    useShallow((state) => ids.map((callId) => state.transcript.calls[callId]).filter((call) => call !== undefined)),
  );
  const [open, setOpen] = useState(() => opened.has(id));
  const { scroller, stopFollowing } = useContext(TranscriptScroller);
  const card = useRef<HTMLElement>(null);
  const toggleButton = useRef<HTMLButtonElement>(null);
  /** Where the opened group's header is to stay in the view: where it was pressed, or the view's top. */
  const anchor = useRef<number | null>(null);
  const toggle = () => {
    if (open) opened.delete(id);
    else {
      opened.add(id);
      // The view stays on the group the person opened, not pulled to the end as it grows.
      stopFollowing();
      const header = card.current?.getBoundingClientRect();
      const view = scroller?.getBoundingClientRect();
      // A header in the lower half of the view (or out of it) moves to the top, so its first cards show.
      if (header && view)
        anchor.current = header.top < view.top || header.top > view.top + view.height / 2 ? view.top : header.top;
    }
    setOpen(!open);
  };
  useLayoutEffect(() => {
    if (!open || anchor.current === null || !scroller) return;
    const at = anchor.current;
    anchor.current = null;
    // The browser's scroll anchoring, or a group opened at the end that could not move up before it
    // grew, would leave the view elsewhere: put the header back, now and once the cards are measured.
    const place = () => {
      const header = card.current?.getBoundingClientRect();
      if (header) scroller.scrollTop += header.top - at;
    };
    place();
    const frame = requestAnimationFrame(place);
    return () => cancelAnimationFrame(frame);
  }, [open, scroller]);
  // The first cards' colours are worked out while the group is still folded, and its files'
  // languages loaded in the highlighter's worker.
  const ahead = useColoursAhead(calls);
  // Again when older pages bring the group's first calls.
  useEffect(() => {
    if (!open) ahead.drawn(0, -1);
  }, [open, ahead, ids[0]]);
  const languages = [...new Set(calls.map((call) => languageFor(basename(call.description?.path ?? ''))))]
    .filter((language) => language !== null)
    .join(' ');
  useEffect(() => {
    if (languages !== '') return whenIdle(() => warmHighlighter(languages.split(' ')));
  }, [languages]);
  const summary = groupSummary(calls);
  const names = calls.map(callName);
  const failed = calls.some((call) => call.state !== 'done');
  const time = calls.reduce((total, call) => total + (call.execution_time ?? 0), 0);
  return (
    <article
      ref={card}
      className={failed ? 'card read-group is-error' : 'card read-group'}
      data-testid="read-group"
      data-calls={ids.length}
      aria-label={`${summary}, ${open ? 'open' : 'folded'}`}
    >
      <header className="card-header">
        <button
          ref={toggleButton}
          type="button"
          className="read-group-toggle"
          data-testid="read-group-toggle"
          aria-expanded={open}
          title={open ? 'Fold into one card' : 'Show each call’s card'}
          onClick={toggle}
        >
          <span className="read-group-arrow" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          <span className="card-title" data-testid="read-group-summary">
            {summary}
          </span>
        </button>
        <span className="card-subtitle" data-testid="read-group-names" title={names.join('\n')}>
          <SafeText text={names.filter(Boolean).join(', ')} />
        </span>
        <span className="card-spacer" />
        <span className="card-time">{formatDuration(time)}</span>
      </header>
      {open ? (
        <GroupCards ids={ids} label={`${summary}: each call’s card`} header={toggleButton} ahead={ahead} />
      ) : null}
    </article>
  );
});
