import { useId, useState } from 'react';
import { formatDuration } from '../../protocol/format.ts';
import { formatElapsed, useElapsedSeconds } from '../cards/Elapsed.tsx';
import type { MessageEntry } from '../store/transcript-types.ts';
import { SafeText } from '../text/SafeText.tsx';

// The model's reasoning in a turn. While it streams the block is open and its text grows, with a
// ticking timer; once the reasoning ends it folds to one line that says how long it took, and opens
// again on a click (or Enter / Space). A person's own choice to open or close it is kept.

export type ThinkingEntry = Extract<MessageEntry, { kind: 'thinking' }>;

export function ThinkingBlock({ message }: { message: ThinkingEntry }) {
  const [chosen, setChosen] = useState<boolean | null>(null);
  const bodyId = useId();
  const expanded = chosen ?? message.streaming;
  const seconds = useElapsedSeconds(message.streaming ? message.started_at : undefined);
  const time = message.streaming
    ? seconds === null
      ? ''
      : formatElapsed(seconds)
    : message.duration_ms === undefined
      ? ''
      : formatDuration(message.duration_ms);
  return (
    <div
      className={`thinking${message.streaming ? ' streaming' : ''}`}
      data-testid="thinking-block"
      data-state={message.streaming ? 'streaming' : 'done'}
      aria-busy={message.streaming}
    >
      <button
        type="button"
        className="thinking-toggle"
        data-testid="thinking-toggle"
        aria-expanded={expanded}
        aria-controls={bodyId}
        onClick={() => setChosen(!expanded)}
      >
        <span className="thinking-chevron" aria-hidden="true">
          {expanded ? '▾' : '▸'}
        </span>
        {message.streaming ? <span className="card-glyph glyph-running" aria-hidden="true" /> : null}
        <span className="thinking-label">{message.streaming ? 'Thinking…' : 'Thinking'}</span>
        {time ? (
          <span className="thinking-time" data-testid="thinking-time" title={message.streaming ? 'So far' : 'Took'}>
            {time}
          </span>
        ) : null}
      </button>
      {expanded ? (
        <div id={bodyId} className="thinking-text" data-testid="thinking-text">
          <SafeText text={message.text} />
        </div>
      ) : null}
    </div>
  );
}
