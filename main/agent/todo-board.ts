import type { ContextNoteEvent, StatusEvent } from '../../protocol/events.ts';
import { todoListText, todosOf, type TodoItem } from '../../protocol/todos.ts';
import type { ChatMessage } from '../model/types.ts';
import type { StatusSink } from '../status/sink.ts';
import type { TodoBoard } from '../tools/todos/todo-write.ts';

// The session's todo list: written whole by the model (todo_write) or the person (the panel's
// checklist), each time as a durable `todos` event. When the person changed it, or a compaction
// summarised the context, the model is told the list again, verbatim, at its next step's start (a
// `context_note`), so what it works from is never a summary's paraphrase of it.

export class SessionTodos implements TodoBoard {
  private todos: TodoItem[];
  /** Why the model must be told the list before its next step, if it must. */
  private untold: 'person' | 'compaction' | null = null;
  private readonly sink: StatusSink;

  constructor(sink: StatusSink, history: readonly StatusEvent[]) {
    this.sink = sink;
    this.todos = todosOf(history);
    // A person's change the model had not been told of when the session closed.
    let told = true;
    for (const event of history) {
      if (event.type === 'todos') told = event.by === 'model';
      if (event.type === 'context_note' && event.about === 'todos') told = true;
    }
    if (!told) this.untold = 'person';
  }

  list(): TodoItem[] {
    return this.todos.map((item) => ({ ...item }));
  }

  async write(todos: TodoItem[]): Promise<void> {
    this.todos = todos.map((item) => ({ ...item }));
    // What the model wrote is what it knows; an earlier change it was not told of is moot.
    if (this.untold === 'person') this.untold = null;
    await this.sink.emit({ type: 'todos', todos: this.list(), by: 'model' });
  }

  /** The person's list (ticked, added to, items removed); the model hears of it at its next step. */
  async setByPerson(todos: TodoItem[]): Promise<void> {
    this.todos = todos.map((item) => ({ ...item }));
    this.untold = 'person';
    await this.sink.emit({ type: 'todos', todos: this.list(), by: 'person' });
  }

  /** The todos of an approved plan: the list now, told to the model with the plan itself. */
  async seed(todos: TodoItem[]): Promise<void> {
    this.todos = todos.map((item) => ({ ...item }));
    this.untold = null;
    await this.sink.emit({ type: 'todos', todos: this.list(), by: 'person' });
  }

  /** A compaction happened: a list that is not empty is told again after it. */
  compacted(): void {
    if (this.todos.length > 0 && this.untold === null) this.untold = 'compaction';
  }

  /** At a step's start: tells the model the list when it must, as a durable note and a user message. */
  async tell(turnId: string, messages: ChatMessage[]): Promise<void> {
    const why = this.untold;
    if (why === null) return;
    this.untold = null;
    const note: ContextNoteEvent = {
      type: 'context_note',
      turn_id: turnId,
      about: 'todos',
      text: todoListText(this.todos, why),
    };
    await this.sink.emit(note);
    messages.push({ role: 'user', content: note.text });
  }
}
