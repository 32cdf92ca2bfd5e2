import type { ExecRun } from '../exec/exec-output.ts';

// A command whose preview the person kept: its result, left for the call to return in place of a
// run (the previewed changes are already in the workspace). Keyed by call id, taken once.

const kept = new Map<string, ExecRun>();

export function keepPreviewResult(callId: string, run: ExecRun): void {
  kept.set(callId, run);
}

export function takeKeptPreview(callId: string): ExecRun | null {
  const run = kept.get(callId) ?? null;
  kept.delete(callId);
  return run;
}
