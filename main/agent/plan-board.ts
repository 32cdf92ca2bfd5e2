import type { Result } from '../../protocol/api.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import type { ChatMessage } from '../model/types.ts';
import type { StatusSink } from '../status/sink.ts';
import type { PlanDesk } from '../tools/todos/plan-propose.ts';

// The plan of a session: a proposal ends the turn it was made in; the approved plan is a durable
// context note, told at the next step's start and again after every compaction, verbatim.

export class SessionPlan implements PlanDesk {
  private approved: { text: string; callId: string } | null = null;
  private untold = false;
  private endTurn = false;
  private readonly sink: StatusSink;

  constructor(sink: StatusSink, history: readonly StatusEvent[]) {
    this.sink = sink;
    for (const event of history)
      if (event.type === 'context_note' && event.about === 'plan')
        this.approved = { text: event.text, callId: event.call_id ?? '' };
  }

  proposed(): void {
    this.endTurn = true;
  }

  /** True once after a step that proposed a plan: the turn ends there. */
  takeTurnEnd(): boolean {
    const end = this.endTurn;
    this.endTurn = false;
    return end;
  }

  /** Keep planning: the proposal stays unanswered, durably; the model is told nothing. */
  async keep(callId: string): Promise<Result<void>> {
    if (this.approved?.callId === callId)
      return { ok: false, error: 'This plan is approved already: the work started from it.' };
    await this.sink.emit({ type: 'plan_kept', call_id: callId });
    return { ok: true, value: undefined };
  }

  approve(callId: string, text: string): void {
    this.approved = { text, callId };
    this.untold = true;
  }

  compacted(): void {
    if (this.approved) this.untold = true;
  }

  async tell(turnId: string, messages: ChatMessage[]): Promise<void> {
    const approved = this.approved;
    if (!this.untold || !approved) return;
    this.untold = false;
    await this.sink.emit({
      type: 'context_note',
      turn_id: turnId,
      about: 'plan',
      text: approved.text,
      ...(approved.callId ? { call_id: approved.callId } : {}),
    });
    messages.push({ role: 'user', content: approved.text });
  }
}
