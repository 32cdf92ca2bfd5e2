import { z } from 'zod';
import {
  todoListSchema,
  todoLines,
  todoProgress,
  todosEchoSchema,
  TODO_LIMIT,
  type TodoItem,
} from '../../../protocol/todos.ts';
import { declareEcho, defineTool } from '../tool.ts';

// `todo_write`: the model writes its whole todo list; the session keeps it (durable, shown pinned
// above the message box, told again after a compaction) through the board it hands in.

/** Where the list lives: the session's (main/agent/todo-board.ts). */
export interface TodoBoard {
  /** Keeps the list the model wrote; resolves once it is saved. */
  write(todos: TodoItem[]): Promise<void>;
}

/** The tools each session registers of its own, beside the built-in ones it is given. */
export const SESSION_TOOL_NAMES = ['todo_write', 'plan_propose'] as const;

export const todoWriteArgsSchema = z.object({ todos: todoListSchema });
export type TodoWriteArgs = z.infer<typeof todoWriteArgsSchema>;

export function todoWriteTool(board: TodoBoard) {
  return defineTool<TodoWriteArgs, { todos: TodoItem[] }>({
    name: 'todo_write',
    model: {
      description:
        'Write your todo list for the work in hand: the whole list every time (it replaces the last one), ' +
        `at most ${TODO_LIMIT} items, each {id, text, status} with status pending, in_progress, done or dropped. ` +
        'Keep one item in_progress while you work on it and mark it done as soon as it is. The person sees the ' +
        'list and may change it; you are told when they do.',
      schema: todoWriteArgsSchema,
      render: (result) => {
        const { done, total } = todoProgress(result.todos);
        return `Todo list saved: ${done} of ${total} done.\n${todoLines(result.todos)}`;
      },
    },
    gate: { kind: 'read' },
    card: {
      describe: (args) => {
        const { done, total } = todoProgress(args.todos);
        return { title: 'Todo list', subtitle: `${done} of ${total} done` };
      },
      echo: declareEcho(todosEchoSchema, (result: { todos: TodoItem[] }) => ({ kind: 'todos', todos: result.todos })),
    },
    async execute(args) {
      await board.write(args.todos);
      return { todos: args.todos };
    },
  });
}
