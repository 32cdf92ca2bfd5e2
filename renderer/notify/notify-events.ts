import type { StatusEvent } from '../../protocol/events.ts';
import type { TranscriptState } from '../store/transcript-types.ts';

// Which live events deserve a system notification when the panel is not in front: a question
// that waits for the person (its own kind, so it can stay on screen), and the end of a turn,
// finished or failed. A turn the person stopped needs no telling.

export interface PanelNotice {
  kind: 'approval' | 'turn_completed' | 'turn_failed';
  title: string;
  body: string;
  /** One notification per question or turn: a second with the same tag replaces the first. */
  tag: string;
  /** The card or message row to show when the notification is clicked. */
  target: { kind: 'call' | 'message'; id: string } | null;
}

const BODY_CHARS = 160;

function short(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > BODY_CHARS ? `${line.slice(0, BODY_CHARS - 1)}…` : line;
}

/** The last assistant text of a turn, if it wrote any. */
function lastAnswer(transcript: TranscriptState, turnId: string): { id: string; text: string } | null {
  for (let i = transcript.order.length - 1; i >= 0; i--) {
    const item = transcript.order[i];
    if (item?.kind !== 'message') continue;
    const message = transcript.messages[item.id];
    if (message?.kind === 'assistant' && message.turn_id === turnId && message.text.trim() !== '')
      return { id: item.id, text: message.text };
  }
  return null;
}

/** The notice for one live event, or null when it needs none. */
export function noticeFor(event: StatusEvent, transcript: TranscriptState): PanelNotice | null {
  switch (event.type) {
    case 'tool_approval_requested': {
      const card = event.parent_call_id ?? event.call_id;
      return {
        kind: 'approval',
        title: 'Approval needed',
        body: short(event.request.detail ? `${event.request.title}: ${event.request.detail}` : event.request.title),
        tag: `approval:${event.call_id}`,
        target: { kind: 'call', id: card },
      };
    }
    case 'turn_completed': {
      const answer = lastAnswer(transcript, event.turn_id);
      return {
        kind: 'turn_completed',
        title: 'Turn finished',
        body: answer ? short(answer.text) : 'The oracle has finished.',
        tag: `turn:${event.turn_id}`,
        target: answer ? { kind: 'message', id: answer.id } : null,
      };
    }
    case 'turn_failed':
      if (event.aborted) return null;
      return {
        kind: 'turn_failed',
        title: 'Turn failed',
        body: short(event.error),
        tag: `turn:${event.turn_id}`,
        target: null,
      };
    default:
      return null;
  }
}
