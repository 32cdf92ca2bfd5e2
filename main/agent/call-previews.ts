import path from 'node:path';
import type { Result } from '../../protocol/api.ts';
import { errorMessage } from '../../protocol/errors.ts';
import type { ApprovalRequest } from '../../protocol/events.ts';
import {
  DEFAULT_SANDBOX_RULES,
  describeSandbox,
  type CommandPreviewView,
  type PreviewProgress,
} from '../../protocol/sandbox.ts';
import { execRunOf } from '../tools/exec/exec-output.ts';
import type { PermissionGate } from '../tools/permission-gate.ts';
import { previewCommand, type CommandPreview } from '../tools/sandbox/command-preview.ts';
import { keepPreviewResult } from '../tools/sandbox/kept-previews.ts';
import { confinePath } from '../tools/workspace.ts';

// The previews of a session's waiting commands: Preview on an approval runs the command over a
// copy of the workspace in the sandbox (with the session's sandbox rules, or the defaults) and
// shows what it would change; Keep applies exactly that and answers the question so the call
// returns the preview's result without running again. A question answered otherwise drops it.

export class CallPreviews {
  private readonly workspace: string;
  private readonly gate: PermissionGate;
  private readonly asked = new Map<string, NonNullable<ApprovalRequest['preview']>>();
  private readonly shown = new Map<string, CommandPreview>();
  /** How far a preview has gone, for the call's card (copying a large workspace takes a while). */
  private readonly progress: (callId: string, progress: PreviewProgress) => void;

  constructor(
    workspace: string,
    gate: PermissionGate,
    progress: (callId: string, progress: PreviewProgress) => void = () => undefined,
  ) {
    this.workspace = workspace;
    this.gate = gate;
    this.progress = progress;
  }

  /** A question went out: it may be previewed while it waits. */
  asking(callId: string, request: ApprovalRequest): void {
    if (request.preview) this.asked.set(callId, request.preview);
  }

  /** The question was answered or stopped. */
  settled(callId: string): void {
    this.asked.delete(callId);
    void this.shown.get(callId)?.discard();
    this.shown.delete(callId);
  }

  async preview(callId: string): Promise<Result<CommandPreviewView>> {
    const asked = this.asked.get(callId);
    if (!asked)
      return {
        ok: false,
        error: 'No command waits for your approval under this call, so there is nothing to preview.',
      };
    try {
      const cwd = await confinePath(this.workspace, asked.cwd);
      const preview = await previewCommand({
        command: asked.command,
        workspace: this.workspace,
        cwd,
        rules: this.gate.sandbox ?? DEFAULT_SANDBOX_RULES,
        progress: (update) => this.progress(callId, update),
      });
      await this.shown.get(callId)?.discard();
      this.shown.set(callId, preview);
      return {
        ok: true,
        value: {
          command: preview.command,
          exit_code: preview.end.exitCode,
          status: preview.end.status,
          output: preview.output,
          files: preview.files,
          caveat: preview.caveat,
        },
      };
    } catch (error) {
      return { ok: false, error: `The preview could not run: ${errorMessage(error)}` };
    }
  }

  /** Applies the shown preview; `answer` then lets the call go on to return its result. */
  async keep(callId: string, answer: () => Result<void>): Promise<Result<void>> {
    const preview = this.shown.get(callId);
    if (!preview) return { ok: false, error: 'Preview the command first: there is no preview of it to keep.' };
    try {
      const applied = await preview.keep();
      const final = {
        text: preview.output,
        totalBytes: Buffer.byteLength(preview.output),
        totalLines: preview.output.split('\n').length - (preview.output.endsWith('\n') ? 1 : 0),
        cut: false,
      };
      const run = execRunOf({ command: preview.command }, preview.end, final);
      keepPreviewResult(callId, {
        ...run,
        sandbox: `${describeSandbox(this.gate.sandbox ?? DEFAULT_SANDBOX_RULES)}; previewed over a copy, and the person kept its result (${applied.length} file${applied.length === 1 ? '' : 's'}: ${applied.map((file) => path.normalize(file)).join(', ') || 'none'})`,
      });
    } catch (error) {
      return { ok: false, error: errorMessage(error) };
    }
    return answer();
  }
}
