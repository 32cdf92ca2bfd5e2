import { todosEchoSchema, type TodoItem } from '../../protocol/todos.ts';
import { decodeEcho } from './echo.ts';
import { genericView } from './GenericView.tsx';
import type { CardBodyProps, CardView } from './view.ts';
import '../styles/todos.css';

// A todo_write call: the list as the model wrote it there, item by item with its state. The live
// list, which the person may change, is pinned above the message box (composer/TodoChecklist.tsx).

export const TODO_MARK: Record<TodoItem['status'], string> = {
  pending: '○',
  in_progress: '◐',
  done: '✓',
  dropped: '–',
};

export const TODO_STATE: Record<TodoItem['status'], string> = {
  pending: 'to do',
  in_progress: 'in progress',
  done: 'done',
  dropped: 'dropped',
};

function TodosBody({ call }: CardBodyProps) {
  const echo = decodeEcho(call.echo, todosEchoSchema);
  // A refused list (two items of one id, say) reads as its error text.
  if (!echo) return <genericView.Body call={call} />;
  return (
    <ul className="todo-card-list" data-testid="todo-card-list">
      {echo.todos.map((item) => (
        <li key={item.id} className={`todo-item todo-${item.status}`} data-status={item.status}>
          <span className="todo-mark" aria-label={TODO_STATE[item.status]}>
            {TODO_MARK[item.status]}
          </span>
          <span className="todo-text">{item.text}</span>
        </li>
      ))}
    </ul>
  );
}

export const todosView: CardView = {
  name: 'todos',
  Body: TodosBody,
  isEmpty: () => false,
};
