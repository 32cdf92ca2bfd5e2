import type { FixtureStep, FixtureToolCall } from './fixture-script.ts';
import type { StepContext } from './fixture-wire.ts';

// OpenAI's Responses API streaming wire, as the fixture server writes it for `POST /v1/responses`:
// named SSE events (`event: response.…` + `data: {…}` with a `sequence_number`), output items added
// and done in turn — reasoning (its summary streamed, its encrypted content on the done item),
// the message's text, each function call's arguments — and `response.completed` with the usage.

function pieces(call: FixtureToolCall): string[] {
  if (call.args_chunks !== undefined) return call.args_chunks;
  const json = JSON.stringify(call.args ?? {});
  const out: string[] = [];
  for (let i = 0; i < json.length; i += call.chunk_size) out.push(json.slice(i, i + call.chunk_size));
  return out;
}

/** The encrypted reasoning a step's reasoning item carries, stable per request. */
export function fixtureEncryptedReasoning(seq: number): string {
  return Buffer.from(`fixture-encrypted-reasoning-${seq}`).toString('base64');
}

export function responsesStepEvents(step: FixtureStep, ctx: StepContext): string[] {
  const events: string[] = [];
  let sequence = 0;
  const emit = (data: Record<string, unknown>): void => {
    events.push(`event: ${String(data.type)}\ndata: ${JSON.stringify({ ...data, sequence_number: sequence })}\n\n`);
    sequence += 1;
  };
  const id = `resp_Fx${String(ctx.seq).padStart(20, '0')}`;
  const response = { id, object: 'response', created_at: ctx.created, model: ctx.model, service_tier: 'default' };
  emit({ type: 'response.created', response: { ...response, status: 'in_progress', output: [] } });
  let index = 0;
  if (step.thinking.length > 0) {
    const item = `rs_Fx${ctx.seq}`;
    const text = step.thinking.join('');
    emit({
      type: 'response.output_item.added',
      output_index: index,
      item: { type: 'reasoning', id: item, summary: [], encrypted_content: null },
    });
    const part = { item_id: item, output_index: index, summary_index: 0 };
    emit({ type: 'response.reasoning_summary_part.added', ...part, part: { type: 'summary_text', text: '' } });
    for (const delta of step.thinking) emit({ type: 'response.reasoning_summary_text.delta', ...part, delta });
    emit({ type: 'response.reasoning_summary_part.done', ...part, part: { type: 'summary_text', text } });
    emit({
      type: 'response.output_item.done',
      output_index: index,
      item: {
        type: 'reasoning',
        id: item,
        summary: [{ type: 'summary_text', text }],
        encrypted_content: fixtureEncryptedReasoning(ctx.seq),
      },
    });
    index += 1;
  }
  if (step.text.length > 0) {
    const item = `msg_Fx${ctx.seq}`;
    const text = step.text.join('');
    const message = { type: 'message', id: item, role: 'assistant' };
    emit({
      type: 'response.output_item.added',
      output_index: index,
      item: { ...message, status: 'in_progress', content: [] },
    });
    for (const delta of step.text)
      emit({ type: 'response.output_text.delta', item_id: item, output_index: index, content_index: 0, delta });
    emit({
      type: 'response.output_item.done',
      output_index: index,
      item: { ...message, status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] },
    });
    index += 1;
  }
  step.tool_calls.forEach((call, i) => {
    const item = `fc_Fx${ctx.seq}x${i}`;
    const callId = call.id ?? `call_Fx${ctx.seq}x${i}`;
    const added = { type: 'function_call', id: item, call_id: callId, name: call.name };
    emit({ type: 'response.output_item.added', output_index: index, item: { ...added, arguments: '' } });
    for (const delta of pieces(call))
      emit({ type: 'response.function_call_arguments.delta', item_id: item, output_index: index, delta });
    emit({
      type: 'response.output_item.done',
      output_index: index,
      item: { ...added, arguments: pieces(call).join(''), status: 'completed' },
    });
    index += 1;
  });
  const input = ctx.cache ?? { input_tokens: step.usage.input_tokens, cache_read_tokens: 0, cache_write_tokens: 0 };
  const incomplete = step.stop_reason === 'max_tokens';
  emit({
    type: incomplete ? 'response.incomplete' : 'response.completed',
    response: {
      ...response,
      status: incomplete ? 'incomplete' : 'completed',
      incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
      usage: {
        input_tokens: input.input_tokens,
        input_tokens_details: { cached_tokens: input.cache_read_tokens },
        output_tokens: step.usage.output_tokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: input.input_tokens + step.usage.output_tokens,
      },
    },
  });
  return events;
}

/** The error event a Responses stream carries when it fails after it started. */
export function responsesErrorEvent(errorType: string, message: string): string {
  return `event: error\ndata: ${JSON.stringify({ type: 'error', code: errorType, message, param: null, sequence_number: 0 })}\n\n`;
}
