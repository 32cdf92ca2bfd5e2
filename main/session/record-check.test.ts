import { describe, expect, it } from 'vitest';
import { checkedRecord } from './record-check.ts';
import { recordSchema } from './records.ts';

// The hand check may only say yes where the schema says yes and gives the value back unchanged.
// Every record kind and event type, then every single-field change of each: a field removed, an
// unknown field added, each value replaced by a value of every other JSON kind.

const at = '2026-01-01T00:00:00.000Z';
const event = (body: Record<string, unknown>) => ({ kind: 'event', event: { ...body, seq: 3, at } });

const VALID: unknown[] = [
  { kind: 'header', version: 1, id: 's1', workspace: '/w', created_at: at, model: 'm' },
  {
    kind: 'header',
    version: 2,
    id: 's2',
    workspace: '/w',
    created_at: at,
    model: 'm',
    parent: { session: 's1', turn_id: 't1', call_id: 'c1' },
  },
  event({ type: 'user_message', turn_id: 't1', text: 'hi', mention_calls: ['c0'] }),
  event({ type: 'turn_started', turn_id: 't1', model: 'm' }),
  event({ type: 'todos', todos: [{ id: 't1', text: 'Read', status: 'done' }], by: 'model' }),
  event({ type: 'context_note', turn_id: 't1', about: 'todos', text: 'The list' }),
  event({ type: 'queue', items: [{ id: 'q1', text: 'next', mode: 'next', mentions: ['a.ts'] }], held: true }),
  event({ type: 'turn_completed', turn_id: 't1', usage: { input_tokens: 1, output_tokens: 2 } }),
  event({ type: 'turn_failed', turn_id: 't1', error: 'boom' }),
  event({
    type: 'assistant_message',
    turn_id: 't1',
    text: '',
    tool_calls: [{ call_id: 'c1', name: 'exec', args: { command: 'ls' } }],
  }),
  event({ type: 'reasoning', turn_id: 't1', text: 'thinking' }),
  event({ type: 'context_message', turn_id: 't1', source: 'AGENTS.md', text: 'rules', change: 'loaded' }),
  event({ type: 'tool_started', turn_id: 't1', call_id: 'c1', name: 'exec', args: {}, echo_kind: 'exec' }),
  event({ type: 'tool_approval_requested', call_id: 'c1', name: 'exec' }),
  event({ type: 'tool_approval_resolved', call_id: 'c1', answer: 'allow' }),
  event({ type: 'tool_completed', call_id: 'c1', name: 'exec', is_error: false, result: { kind: 'text', text: '' } }),
  event({ type: 'tool_code_dispatch', call_id: 'c2', parent_call_id: 'c1', name: 'read_file' }),
  event({ type: 'compaction', summary: 's', kept_messages: 2, kept_user_message: 'u', kept_instructions: ['a'] }),
  event({ type: 'compaction_failed', error: 'e' }),
  event({ type: 'code_rewound', target: 'c1', undo: 'u', what: 'w' }),
  event({ type: 'process_state', process: { id: 'p1', call_id: 'c1', command: 'npm run dev', state: 'running' } }),
  event({
    type: 'step_usage',
    turn_id: 't1',
    usage: { input_tokens: 1, output_tokens: 2, cache_read_tokens: 0 },
    context_tokens: 10,
    session_cost: 0.5,
  }),
  {
    kind: 'tool_content',
    call_id: 'c1',
    name: 'exec',
    content: 'out',
    is_error: false,
    parent_call_id: 'c0',
    images: [{ sha256: 'ab', media_type: 'image/png', bytes: 3 }],
  },
  { kind: 'reasoning', blocks: [{ provider: 'anthropic', text: 't', data: { signature: 'x' } }] },
];

/** A value of each JSON kind, to put in place of any field. */
const REPLACEMENTS: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  '',
  'x',
  'loaded',
  'image/png',
  [],
  ['x'],
  {},
  { kind: 'text' },
];

/** Every value reachable from `root` with one change, each as a fresh copy. */
function variants(root: unknown): unknown[] {
  const out: unknown[] = [];
  const walk = (path: (string | number)[], value: unknown) => {
    if (typeof value !== 'object' || value === null) return;
    const keys = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
    const edit = (change: (target: Record<string | number, unknown>) => void) => {
      const copy = structuredClone(root) as Record<string | number, unknown>;
      let target = copy;
      for (const key of path) target = target[key] as Record<string | number, unknown>;
      change(target);
      out.push(copy);
    };
    if (!Array.isArray(value)) edit((target) => (target['unexpected'] = 1));
    else edit((target) => (target as unknown as unknown[]).push({}));
    for (const key of keys) {
      edit((target) => delete target[key]);
      for (const replacement of REPLACEMENTS) edit((target) => (target[key] = structuredClone(replacement)));
      walk([...path, key], (value as Record<string | number, unknown>)[key]);
    }
  };
  walk([], root);
  return out;
}

describe('the hand check of session records', () => {
  it('accepts every record kind and event type as the schema gives it back', () => {
    for (const record of VALID) {
      const schema = recordSchema.safeParse(record);
      expect(schema.success, JSON.stringify(record)).toBe(true);
      expect(checkedRecord(record), JSON.stringify(record)).toBe(record);
      expect(schema.data).toEqual(record);
    }
  });

  it('never accepts what the schema rejects or would change', () => {
    let checked = 0;
    let sure = 0;
    for (const record of VALID) {
      for (const value of variants(record)) {
        checked += 1;
        const hand = checkedRecord(value);
        if (hand === null) continue;
        sure += 1;
        const schema = recordSchema.safeParse(value);
        expect(schema.success, JSON.stringify(value)).toBe(true);
        expect(schema.data, JSON.stringify(value)).toEqual(value);
        expect(hand).toBe(value);
      }
    }
    // The changes reach every field, and some of them (an extra field on an event) stay valid.
    expect(checked).toBeGreaterThan(2_000);
    expect(sure).toBeGreaterThan(100);
  });

  it('leaves an unknown kind or event type to the schema', () => {
    expect(checkedRecord({ kind: 'note', text: 'x' })).toBeNull();
    expect(checkedRecord(event({ type: 'tool_output_delta', call_id: 'c1' }))).toBeNull();
    expect(checkedRecord(event({ type: 'constructor' }))).toBeNull();
    expect(checkedRecord([])).toBeNull();
  });
});
