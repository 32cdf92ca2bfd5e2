import { memo } from 'react';
import { MessageImages } from '../composer/MessageImages.tsx';
import { RewindMenu } from '../rewind/RewindMenu.tsx';
import { usePanel } from '../store/store.ts';
import { SafeText } from '../text/SafeText.tsx';
import { CompactionCard } from './CompactionCard.tsx';
import { ContextCard } from './ContextCard.tsx';
import { Markdown } from './Markdown.tsx';
import { RetryButton } from './RetryButton.tsx';
import { ThinkingBlock } from './ThinkingBlock.tsx';
import { TurnMeta } from './TurnMeta.tsx';

// The message rows of the transcript, each selected from the store by its id.

export const MessageRow = memo(function MessageRow({ id }: { id: string }) {
  const message = usePanel((state) => state.transcript.messages[id]);
  // In an agent's session the messages it was sent are its parent's `agent` call's, not the person's.
  const from = usePanel((state) => (state.session?.agent_of ? 'Task given by the parent' : 'You'));
  if (!message) return null;
  switch (message.kind) {
    case 'user':
      if (message.steer)
        return (
          <div className="message-user-row">
            <div className="message message-user message-steer" data-testid="message-user" data-steer="true">
              <div className="message-author">You · steered in after the calls above</div>
              <div className="message-text">{message.text}</div>
              {message.images ? <MessageImages images={message.images} /> : null}
            </div>
          </div>
        );
      return (
        <div className="message-user-row">
          <div className="message message-user" data-testid="message-user">
            <div className="message-author">{from}</div>
            <div className="message-text">{message.text}</div>
            {message.images ? <MessageImages images={message.images} /> : null}
          </div>
          {/* The turn's time and tokens, and its rewind, under the bubble: they are not what you said. */}
          <div className="turn-row">
            <TurnMeta turnId={message.turn_id} />
            <RewindMenu target={message.turn_id} what="your message" />
          </div>
        </div>
      );
    case 'assistant':
      return (
        <div
          className={`message message-assistant${message.streaming ? ' streaming' : ''}`}
          data-testid="message-assistant"
          aria-busy={message.streaming}
        >
          <Markdown text={message.text} />
          {message.partial ? <p className="card-note">The reply was cut off here.</p> : null}
        </div>
      );
    case 'notice':
      return (
        <div
          className={`message message-notice notice-${message.tone}`}
          data-testid="message-notice"
          role={message.tone === 'error' ? 'alert' : undefined}
        >
          <SafeText text={message.text} />
          {message.tone === 'error' ? (
            <RetryButton turnId={message.turn_id} {...(message.retry_at ? { retryAt: message.retry_at } : {})} />
          ) : null}
        </div>
      );
    case 'thinking':
      return <ThinkingBlock message={message} />;
    case 'context':
      return <ContextCard message={message} />;
    case 'compaction':
      return <CompactionCard message={message} />;
  }
});
