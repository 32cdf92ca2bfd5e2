import { IMAGE_MEDIA_TYPES } from '../../protocol/composer.ts';
import type { SessionRecord } from './records.ts';

// The common case of records.ts's schema, checked by hand: opening a long session reads tens of
// thousands of lines, and the schema's generic walk cost as much as parsing their JSON. It only
// ever says yes to a value the schema accepts and gives back unchanged; whatever it is unsure of
// (a missing field, an unknown key the schema would strip, an unknown event type) goes to the
// schema, which decides and words the reason. record-check.test.ts holds the two to that.

type Plain = Record<string, unknown>;

const isPlain = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const optional = (value: unknown, check: (value: unknown) => boolean) => value === undefined || check(value);
/** Every item passes (an indexed loop: `every` would skip the holes of a sparse array). */
function all(list: unknown, check: (item: unknown) => boolean): boolean {
  if (!Array.isArray(list)) return false;
  for (let index = 0; index < list.length; index += 1) if (!check(list[index])) return false;
  return true;
}
const MEDIA_TYPES: ReadonlySet<unknown> = new Set(IMAGE_MEDIA_TYPES);

/** Whether `value` has no keys but `allowed` (the schema's plain objects drop any other key). */
function onlyKeys(value: Plain, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

const HEADER_KEYS = new Set(['kind', 'version', 'id', 'workspace', 'created_at', 'model', 'parent']);
const PARENT_KEYS = new Set(['session', 'turn_id', 'call_id', 'message']);
const EVENT_RECORD_KEYS = new Set(['kind', 'event']);
const CONTENT_KEYS = new Set(['kind', 'call_id', 'name', 'content', 'is_error', 'parent_call_id', 'images']);
const IMAGE_KEYS = new Set(['sha256', 'media_type', 'bytes']);
const REASONING_KEYS = new Set(['kind', 'blocks']);
const BLOCK_KEYS = new Set(['provider', 'text', 'data']);
const CONTEXT_CHANGES: ReadonlySet<unknown> = new Set(['loaded', 'changed', 'removed']);
const QUEUE_MODES: ReadonlySet<unknown> = new Set(['steer', 'next']);

function header(value: Plain): boolean {
  const { version, parent } = value;
  if (!onlyKeys(value, HEADER_KEYS)) return false;
  if (!Number.isSafeInteger(version) || (version as number) <= 0) return false;
  if (!isString(value['id']) || value['id'].length === 0) return false;
  if (!isString(value['workspace']) || !isString(value['created_at']) || !isString(value['model'])) return false;
  if (parent === undefined) return true;
  return (
    isPlain(parent) &&
    onlyKeys(parent, PARENT_KEYS) &&
    isString(parent['session']) &&
    isString(parent['turn_id']) &&
    optional(parent['call_id'], isString) &&
    optional(parent['message'], isCount)
  );
}

function queuedMessage(value: unknown): boolean {
  return isPlain(value) && isString(value['id']) && isString(value['text']) && QUEUE_MODES.has(value['mode']);
}

function toolCall(value: unknown): boolean {
  return isPlain(value) && isString(value['call_id']) && isString(value['name']) && 'args' in value;
}

/** The fields replay relies on, per event type; the rest of an event passes through as written. */
const EVENT_CHECKS: Record<string, (event: Plain) => boolean> = {
  user_message: (e) => isString(e['turn_id']) && isString(e['text']),
  turn_started: (e) => isString(e['turn_id']),
  turn_completed: (e) => isString(e['turn_id']),
  turn_failed: (e) => isString(e['turn_id']),
  assistant_message: (e) => isString(e['turn_id']) && isString(e['text']) && all(e['tool_calls'], toolCall),
  reasoning: (e) => isString(e['turn_id']) && isString(e['text']),
  context_message: (e) =>
    isString(e['turn_id']) && isString(e['source']) && isString(e['text']) && CONTEXT_CHANGES.has(e['change']),
  tool_started: (e) => isString(e['call_id']) && isString(e['name']),
  tool_approval_requested: (e) => isString(e['call_id']),
  tool_approval_resolved: (e) => isString(e['call_id']),
  tool_completed: (e) => isString(e['call_id']) && isString(e['name']) && typeof e['is_error'] === 'boolean',
  tool_code_dispatch: (e) => isString(e['call_id']),
  compaction: (e) =>
    isString(e['summary']) &&
    isCount(e['kept_messages']) &&
    optional(e['kept_user_message'], isString) &&
    optional(e['kept_instructions'], (list) => all(list, isString)),
  compaction_failed: (e) => isString(e['error']),
  code_rewound: (e) => isString(e['target']) && isString(e['undo']) && isString(e['what']),
  queue: (e) => all(e['items'], queuedMessage),
  todos: (e) => all(e['todos'], (item) => isPlain(item) && isString(item['id']) && isString(item['text'])),
  context_note: (e) => isString(e['turn_id']) && isString(e['text']),
  plan_kept: (e) => isString(e['call_id']),
  hook_ran: (e) => isString(e['hook_event']) && isString(e['command']) && isString(e['decision']),
  process_state: (e) =>
    isPlain(e['process']) &&
    isString(e['process']['id']) &&
    isString(e['process']['call_id']) &&
    isString(e['process']['command']) &&
    isString(e['process']['state']),
  step_usage: (e) =>
    isString(e['turn_id']) &&
    isPlain(e['usage']) &&
    isNumber(e['usage']['input_tokens']) &&
    isNumber(e['usage']['output_tokens']) &&
    isNumber(e['context_tokens']) &&
    isNumber(e['session_cost']),
};

function event(value: Plain): boolean {
  const { event } = value;
  if (!onlyKeys(value, EVENT_RECORD_KEYS) || !isPlain(event) || !isString(event['type'])) return false;
  const check = Object.hasOwn(EVENT_CHECKS, event['type']) ? EVENT_CHECKS[event['type']] : undefined;
  return check !== undefined && check(event);
}

function image(value: unknown): boolean {
  return (
    isPlain(value) &&
    onlyKeys(value, IMAGE_KEYS) &&
    isString(value['sha256']) &&
    MEDIA_TYPES.has(value['media_type']) &&
    isCount(value['bytes'])
  );
}

function toolContent(value: Plain): boolean {
  return (
    onlyKeys(value, CONTENT_KEYS) &&
    isString(value['call_id']) &&
    isString(value['name']) &&
    isString(value['content']) &&
    typeof value['is_error'] === 'boolean' &&
    optional(value['parent_call_id'], isString) &&
    optional(value['images'], (list) => all(list, image))
  );
}

function block(value: unknown): boolean {
  return (
    isPlain(value) &&
    onlyKeys(value, BLOCK_KEYS) &&
    isString(value['provider']) &&
    isString(value['text']) &&
    optional(value['data'], isPlain)
  );
}

function reasoning(value: Plain): boolean {
  const { blocks } = value;
  return onlyKeys(value, REASONING_KEYS) && all(blocks, block);
}

/** `value` as a session record when it surely is one, exactly as the schema would give it back; else null. */
export function checkedRecord(value: unknown): SessionRecord | null {
  if (!isPlain(value)) return null;
  const sure =
    value['kind'] === 'event'
      ? event(value)
      : value['kind'] === 'tool_content'
        ? toolContent(value)
        : value['kind'] === 'header'
          ? header(value)
          : value['kind'] === 'reasoning' && reasoning(value);
  return sure ? (value as unknown as SessionRecord) : null;
}
