import type { ToolCallRequest } from '../../protocol/events.ts';
import type { ToolOutcome } from '../tools/call-context.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { ToolKind } from '../tools/tool.ts';

// Running the calls of one model step. Consecutive read-only calls run together; a call that
// writes, executes or runs code runs alone, after everything before it and before everything
// after it. Outcomes come back in the order the model gave the calls, whatever order they finish.

export interface CallBatch {
  /** Indexes into the step's calls. */
  indexes: number[];
  parallel: boolean;
}

export function batchCalls(
  calls: readonly ToolCallRequest[],
  kindOf: (name: string) => ToolKind | undefined,
): CallBatch[] {
  const batches: CallBatch[] = [];
  calls.forEach((call, index) => {
    const readOnly = kindOf(call.name) === 'read';
    const last = batches.at(-1);
    if (readOnly && last?.parallel) last.indexes.push(index);
    else batches.push({ indexes: [index], parallel: readOnly });
  });
  return batches;
}

export async function runStepCalls(
  calls: readonly ToolCallRequest[],
  options: { registry: ToolRegistry; signal: AbortSignal; turnId: string },
): Promise<ToolOutcome[]> {
  const { registry, signal, turnId } = options;
  const outcomes: ToolOutcome[] = [];
  const run = async (index: number): Promise<void> => {
    const call = calls[index]!;
    // Once stopped, the remaining calls still go through the registry, which refuses to start
    // them: every call the model asked for gets a card and a result it can read.
    outcomes[index] = await registry.call({ callId: call.call_id, name: call.name, args: call.args, signal, turnId });
  };
  for (const batch of batchCalls(calls, (name) => registry.get(name)?.gate.kind)) {
    if (batch.parallel) await Promise.all(batch.indexes.map(run));
    else await run(batch.indexes[0]!);
  }
  return outcomes;
}

/** Call ids the model reuses (or leaves empty) are made unique within the session. */
export function uniqueCallIds(
  calls: readonly ToolCallRequest[],
  seen: Set<string>,
  fresh: () => string,
): ToolCallRequest[] {
  return calls.map((call) => {
    let id = call.call_id.length > 0 ? call.call_id : fresh();
    for (let suffix = 2; seen.has(id); suffix += 1) id = `${call.call_id || 'call'}-${suffix}`;
    seen.add(id);
    return id === call.call_id ? call : { ...call, call_id: id };
  });
}
