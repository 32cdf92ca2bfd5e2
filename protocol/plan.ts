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

/** What the model is told in plan mode, in its system prompt (the demo model looks for it). */
export const PLAN_MODE_LINE =
  'Plan mode: the person wants a plan before anything changes. Read and search as you need; nothing may be written. End your turn with plan_propose {plan, todos}: the person approves it (and chooses the mode to work in), asks for a revision, or keeps planning with you.';

/** The message an approval starts its turn with. */
export const PLAN_APPROVED_MESSAGE = 'Approved: carry out the plan.';
