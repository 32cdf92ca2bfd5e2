import type { Result } from '../../protocol/api.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { approvedPlanText } from '../../protocol/plan.ts';
import { todoListSchema, type TodoItem } from '../../protocol/todos.ts';
import type { ChatMessage } from '../model/types.ts';
import type { StatusSink } from '../status/sink.ts';
import type { AnyTool } from '../tools/tool.ts';
import { planProposeTool } from '../tools/todos/plan-propose.ts';
import { todoWriteTool } from '../tools/todos/todo-write.ts';
import { SessionPlan } from './plan-board.ts';
import { SessionTodos } from './todo-board.ts';

// What a session keeps telling the model as context notes: its todo list (todo-board.ts) and the
// approved plan (plan-board.ts). Both are durable, told at a step's start when they changed, and
// told again, verbatim, after every compaction.

export class SessionNotes {
  /** The todo list the model keeps and the person may change. */
  private readonly todos: SessionTodos;
  /** Plans proposed (they end their turn) and the approved one. */
  private readonly plan: SessionPlan;

  constructor(sink: StatusSink, history: readonly StatusEvent[]) {
    this.todos = new SessionTodos(sink, history);
    this.plan = new SessionPlan(sink, history);
  }

  /** The session's own tools: todo_write and plan_propose. */
  tools(): AnyTool[] {
    return [todoWriteTool(this.todos), planProposeTool(this.plan)];
  }

  /** A compaction happened: the plan and the list are told again after it. */
  compacted(): void {
    this.todos.compacted();
    this.plan.compacted();
  }

  /** At a step's start: the plan, then the list, when the model must be told them. */
  async tell(turnId: string, messages: ChatMessage[]): Promise<void> {
    await this.plan.tell(turnId, messages);
    await this.todos.tell(turnId, messages);
  }

  /** True once after a step that proposed a plan: the turn ends there. */
  endsTurn(): boolean {
    return this.plan.takeTurnEnd();
  }

  /** The todo list as it stands. */
  todoList(): TodoItem[] {
    return this.todos.list();
  }

  /** The person's todo list (ticked, added to, items removed): saved now, told to the model at its next step. */
  async setTodos(todos: unknown): Promise<Result<TodoItem[]>> {
    const parsed = todoListSchema.safeParse(todos);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, error: `The todo list was not changed: ${issue?.message ?? 'it is not a list of todos'}.` };
    }
    await this.todos.setByPerson(parsed.data);
    return { ok: true, value: this.todos.list() };
  }

  /** Keep planning on a proposed plan: its card is answered, durably; nothing reaches the model. */
  keepPlanning(callId: string): Promise<Result<void>> {
    return this.plan.keep(callId);
  }

  /** The plan (as its card shows it) becomes the approved one, told at the next step; its todos the list. */
  approvePlan(callId: string, plan: string, todos: TodoItem[]): void {
    this.plan.approve(callId, approvedPlanText(plan, todos));
    if (todos.length > 0) void this.todos.seed(todos).catch(() => undefined);
  }
}
