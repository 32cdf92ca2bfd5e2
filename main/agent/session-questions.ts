import type { Result } from '../../protocol/api.ts';
import type { ApprovalAnswer, StatusEvent } from '../../protocol/events.ts';
import type { ReviewChoice } from '../../protocol/review.ts';
import type { CommandPreviewView } from '../../protocol/sandbox.ts';
import { PendingApprovals, type PermissionGate } from '../tools/permission-gate.ts';
import { CallPreviews } from './call-previews.ts';

// A session's questions to the person about its calls: each goes out as tool_approval_requested
// (and as a Notification hook), waits for `answer`, and ends as tool_approval_resolved; a waiting
// command may be previewed in the sandbox meanwhile (call-previews.ts).

export interface QuestionParts {
  workspace: string;
  /** The session's gate, made over these questions (or the host's own gate). */
  gate: (approvals: PendingApprovals) => PermissionGate;
  /** Records an event of the session without waiting for it. */
  emit: (event: StatusEvent) => void;
  /** Tells the Notification hooks the session waits for the person. */
  notify: (message: string) => void;
}

export class SessionQuestions {
  readonly gate: PermissionGate;
  private readonly approvals: PendingApprovals;
  private readonly previews: CallPreviews;

  constructor(parts: QuestionParts) {
    this.approvals = new PendingApprovals(
      (question) => {
        this.previews.asking(question.callId, question.request);
        parts.notify(`ÆtherCodex needs your permission to use ${question.name}`);
        parts.emit({
          type: 'tool_approval_requested',
          call_id: question.callId,
          name: question.name,
          request: question.request,
          ...(question.parentCallId ? { parent_call_id: question.parentCallId } : {}),
        });
      },
      (callId, answer, stopped) => {
        this.previews.settled(callId);
        parts.emit({
          type: 'tool_approval_resolved',
          call_id: callId,
          answer,
          ...(stopped ? { stopped: true as const } : {}),
        });
      },
    );
    this.gate = parts.gate(this.approvals);
    this.previews = new CallPreviews(parts.workspace, this.gate, (callId, preview) =>
      parts.emit({
        type: 'tool_progress',
        call_id: callId,
        progress: { text: '', cut_bytes: 0, total_bytes: 0, preview },
      }),
    );
  }

  /** Runs a waiting command over a copy of the workspace in the sandbox: what it would change (Preview). */
  preview(callId: string): Promise<Result<CommandPreviewView>> {
    return this.previews.preview(callId);
  }

  /** Applies the call's preview and lets it return the preview's result without running again. */
  keepPreview(callId: string): Promise<Result<void>> {
    return this.previews.keep(callId, () => this.answer(callId, 'once'));
  }

  answer(callId: string, answer: ApprovalAnswer, review?: ReviewChoice): Result<void> {
    if (this.approvals.answer(callId, answer, review)) return { ok: true, value: undefined };
    return {
      ok: false,
      error: 'No question is waiting for this call any more; it may have been answered or stopped already.',
    };
  }
}
