import { z } from 'zod';
import { readEcho } from './echo.ts';
import { todoItemSchema, todoLines, type TodoItem } from './todos.ts';

// A plan the model proposed (plan_propose) and the person approved: the card's echo, and the text
// the model is told on approval and again after every compaction, verbatim.

export const planEchoSchema = z.object({ kind: z.literal('plan'), plan: z.string(), todos: z.array(todoItemSchema) });
export type PlanEcho = z.infer<typeof planEchoSchema>;

readEcho(planEchoSchema, {
  text: (echo) => `${echo.plan}${echo.todos.length > 0 ? `\n\n${todoLines(echo.todos)}` : ''}`,
  line: (echo) => `plan proposed (${echo.todos.length} todos):\n${echo.plan}`,
});

/** What the model is told of the approved plan. */
export function approvedPlanText(plan: string, todos: readonly TodoItem[]): string {
  const list = todos.length > 0 ? `\n<todos>\n${todoLines(todos)}\n</todos>` : '';
  return `The person approved this plan. Carry it out, keeping the todo list current with todo_write.\n<plan>\n${plan}\n</plan>${list}`;
}
