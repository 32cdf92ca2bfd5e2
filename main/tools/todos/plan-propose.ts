import { z } from 'zod';
import { planEchoSchema } from '../../../protocol/plan.ts';
import { todoListSchema, type TodoItem } from '../../../protocol/todos.ts';
import { declareEcho, defineTool } from '../tool.ts';

// `plan_propose`: in plan mode the model ends its turn with a plan for the person to approve,
// revise or keep working on; the panel shows it as a card with those three choices.

/** Where a proposal goes: the session ends the turn after the step that made it. */
export interface PlanDesk {
  proposed(): void;
}

export const planProposeArgsSchema = z.object({
  plan: z.string().trim().min(1).max(50_000),
  todos: todoListSchema.optional(),
});
export type PlanProposeArgs = z.infer<typeof planProposeArgsSchema>;

export function planProposeTool(desk: PlanDesk) {
  return defineTool<PlanProposeArgs, { plan: string; todos: TodoItem[] }>({
    name: 'plan_propose',
    model: {
      description:
        'Propose your plan to the person and end your turn: the plan in Markdown, and the todo list that will ' +
        'carry it out ({id, text, status}). Use it in plan mode (where nothing may be written) once you have ' +
        'read enough. The person approves it (you are then told to start, with the plan), asks for a revision, ' +
        'or keeps planning with you.',
      schema: planProposeArgsSchema,
      render: () => 'Plan proposed to the person; the turn ends here. Wait for their answer.',
    },
    gate: { kind: 'read' },
    card: {
      describe: (args) => ({ title: 'Plan', subtitle: firstLine(args.plan) }),
      echo: declareEcho(planEchoSchema, (result: { plan: string; todos: TodoItem[] }) => ({
        kind: 'plan',
        plan: result.plan,
        todos: result.todos,
      })),
    },
    async execute(args) {
      desk.proposed();
      return { plan: args.plan, todos: args.todos ?? [] };
    },
  });
}

function firstLine(text: string): string {
  const line = text.split('\n').find((entry) => entry.trim() !== '') ?? '';
  return line.replace(/^#+\s*/, '').slice(0, 120);
}
