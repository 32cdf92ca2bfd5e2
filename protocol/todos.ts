import { z } from 'zod';
import { readEcho } from './echo.ts';
import type { StatusEvent } from './events.ts';

// The todo list the model keeps with `todo_write` and the person may change: the whole list each
// time, as a durable `todos` event. Replay and the panel fold the events with `todosOf`; what the
// model is told of it (`todoListText`) is the same text every time, so it survives compaction
// verbatim when it is told again after one.

export const TODO_STATUSES = ['pending', 'in_progress', 'done', 'dropped'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

/** The most items a list holds, and the longest item text. */
export const TODO_LIMIT = 100;
export const TODO_TEXT_LIMIT = 500;

export const todoItemSchema = z.object({
  id: z.string().trim().min(1).max(64),
  text: z.string().trim().min(1).max(TODO_TEXT_LIMIT),
  status: z.enum(TODO_STATUSES),
});
export type TodoItem = z.infer<typeof todoItemSchema>;

export const todoListSchema = z
  .array(todoItemSchema)
  .max(TODO_LIMIT)
  .refine((items) => new Set(items.map((item) => item.id)).size === items.length, {
    message: 'Each todo needs an id of its own; two items share one.',
  });

/** The card of a `todo_write` call: the list as the call left it. */
export const todosEchoSchema = z.object({ kind: z.literal('todos'), todos: z.array(todoItemSchema) });
export type TodosEcho = z.infer<typeof todosEchoSchema>;

const MARK: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[~]', done: '[x]', dropped: '[-]' };

/** "3 of 7": done items of those not dropped. */
export function todoProgress(todos: readonly TodoItem[]): { done: number; total: number } {
  const kept = todos.filter((item) => item.status !== 'dropped');
  return { done: kept.filter((item) => item.status === 'done').length, total: kept.length };
}

/** The list as plain text, one item a line: `[x] id: text`. */
export function todoLines(todos: readonly TodoItem[]): string {
  return todos.map((item) => `${MARK[item.status]} ${item.id}: ${item.text}`).join('\n');
}

readEcho(todosEchoSchema, {
  text: (echo) => todoLines(echo.todos),
  line: (echo) => {
    const { done, total } = todoProgress(echo.todos);
    return `todo list: ${done} of ${total} done`;
  },
});

/** What the model is told when the person changed the list, or after a compaction: the list, whole. */
export function todoListText(todos: readonly TodoItem[], why: 'person' | 'compaction'): string {
  const intro =
    why === 'person'
      ? 'The person changed the todo list. This is the list now; keep to it and update it with todo_write:'
      : 'The todo list, as it stands (kept verbatim through the compaction):';
  return `${intro}\n<todos>\n${todos.length > 0 ? todoLines(todos) : '(empty)'}\n</todos>`;
}

/** The list the events leave. */
export function todosOf(events: readonly StatusEvent[]): TodoItem[] {
  let todos: TodoItem[] = [];
  for (const event of events) if (event.type === 'todos') todos = event.todos;
  return todos;
}
