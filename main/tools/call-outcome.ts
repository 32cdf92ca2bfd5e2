import type { ToolContent } from '../../protocol/api.ts';
import type { EchoShape } from '../../protocol/echo.ts';
import type { StatusEvent, ToolCheckpoint, ToolCodeDispatchEvent, ToolCompletedEvent } from '../../protocol/events.ts';
import type { ToolCall, ToolOutcome } from './call-context.ts';
import type { RunOutcome } from './call-render.ts';
import type { CallStart } from './call-start.ts';

// What a finished call hands on: its outcome (to the model adapter or the program that dispatched
// it), its content record (to the store), and its completion event (to the sink). Optional fields
// are set after each literal: a spread in it costs a copy on every call (bench/mcp-call.ts).

export function callOutcome(call: ToolCall, ran: RunOutcome, executionTime: number): ToolOutcome {
  const outcome: ToolOutcome = {
    callId: call.callId,
    name: call.name,
    content: ran.content,
    isError: ran.isError,
    executionTime,
  };
  if (!ran.isError) outcome.result = ran.result;
  if (ran.images?.length) outcome.images = ran.images;
  return outcome;
}

/** The complete content the store keeps for the card's "What the model received"; images by hash. */
export function contentRecord(call: ToolCall, outcome: ToolOutcome): ToolContent & { parent_call_id?: string } {
  const record: ToolContent & { parent_call_id?: string } = {
    call_id: call.callId,
    name: call.name,
    content: outcome.content,
    is_error: outcome.isError,
  };
  if (call.parent) record.parent_call_id = call.parent;
  if (outcome.images)
    record.images = outcome.images.map(({ sha256, media_type, bytes }) => ({ sha256, media_type, bytes }));
  return record;
}

/** tool_completed for a top-level call (with the checkpoint taken before it), tool_code_dispatch for a nested one. */
export function outcomeEvent(
  call: ToolCall,
  outcome: ToolOutcome,
  echo: EchoShape,
  start: CallStart,
  checkpoint: ToolCheckpoint | undefined,
): StatusEvent {
  if (call.parent) {
    const dispatched: ToolCodeDispatchEvent = {
      type: 'tool_code_dispatch',
      parent_call_id: call.parent,
      call_id: call.callId,
      name: call.name,
      args: call.args,
      content: outcome.content,
      echo,
      is_error: outcome.isError,
      execution_time: outcome.executionTime,
    };
    const description = start.describe();
    if (description) dispatched.description = description;
    return dispatched;
  }
  const completed: ToolCompletedEvent = {
    type: 'tool_completed',
    call_id: call.callId,
    name: call.name,
    execution_time: outcome.executionTime,
    is_error: outcome.isError,
    result: echo,
  };
  if (checkpoint) completed.checkpoint = checkpoint;
  return completed;
}
