import { useState } from 'react';
import { todoProgress, TODO_TEXT_LIMIT, type TodoItem } from '../../protocol/todos.ts';
import { useActions } from '../actions.ts';
import { TODO_MARK, TODO_STATE } from '../cards/TodosView.tsx';
import { usePanel } from '../store/store.ts';
import '../styles/todos.css';

// The session's todo list, pinned above the message box while it has items: "3 of 7" and the item
// in progress on one line, the list below it (collapsible). The person may tick an item done (or
// back), add one and remove one; the model is told the new list at its next step.

export function TodoChecklist() {
  const todos = usePanel((state) => state.transcript.todos);
  const viewOnly = usePanel((state) => state.viewOnly);
  const actions = useActions();
  const [open, setOpen] = useState(true);
  const [adding, setAdding] = useState('');
  if (todos.length === 0) return null;
  const { done, total } = todoProgress(todos);
  const current = todos.find((item) => item.status === 'in_progress');
  const change = (next: TodoItem[]) => void actions.setTodos(next);
  const add = () => {
    const text = adding.trim();
    if (text === '') return;
    setAdding('');
    change([...todos, { id: newId(todos), text: text.slice(0, TODO_TEXT_LIMIT), status: 'pending' }]);
  };
  return (
    <section className="todo-checklist" aria-label="Todo list" data-testid="todo-checklist">
      <button
        type="button"
        className="todo-head"
        aria-expanded={open}
        data-testid="todo-toggle"
        onClick={() => setOpen(!open)}
      >
        <span className="todo-caret" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <span>Todo</span>
        <span className="todo-progress" data-testid="todo-progress">
          {done} of {total}
        </span>
        {current ? <span className="todo-current">{current.text}</span> : null}
      </button>
      {open ? (
        <>
          <ul className="todo-items">
            {todos.map((item) => (
              <li
                key={item.id}
                className={`todo-item todo-${item.status}`}
                data-testid="todo-item"
                data-status={item.status}
              >
                {viewOnly ? (
                  <span className="todo-mark" aria-label={TODO_STATE[item.status]}>
                    {TODO_MARK[item.status]}
                  </span>
                ) : (
                  <input
                    type="checkbox"
                    data-testid="todo-tick"
                    aria-label={`${item.text}: ${TODO_STATE[item.status]}`}
                    checked={item.status === 'done'}
                    onChange={(event) =>
                      change(
                        todos.map((entry) =>
                          entry.id === item.id
                            ? { ...entry, status: event.target.checked ? 'done' : 'pending' }
                            : entry,
                        ),
                      )
                    }
                  />
                )}
                <span className="todo-text">{item.text}</span>
                {viewOnly ? null : (
                  <button
                    type="button"
                    className="button small icon"
                    data-testid="todo-remove"
                    aria-label={`Remove ${item.text}`}
                    onClick={() => change(todos.filter((entry) => entry.id !== item.id))}
                  >
                    ✕
                  </button>
                )}
              </li>
            ))}
          </ul>
          {viewOnly ? null : (
            // Not a form: the checklist sits inside the message box's form.
            <div className="todo-add">
              <input
                type="text"
                data-testid="todo-add-input"
                aria-label="Add a todo"
                placeholder="Add a todo…"
                maxLength={TODO_TEXT_LIMIT}
                value={adding}
                onChange={(event) => setAdding(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
                  event.preventDefault();
                  add();
                }}
              />
              <button
                type="button"
                className="button small"
                data-testid="todo-add"
                disabled={adding.trim() === ''}
                onClick={add}
              >
                Add
              </button>
            </div>
          )}
        </>
      ) : null}
    </section>
  );
}

/** An id no item of the list has: the person's items are `p1`, `p2`, … */
function newId(todos: readonly TodoItem[]): string {
  const taken = new Set(todos.map((item) => item.id));
  let index = todos.length + 1;
  while (taken.has(`p${index}`)) index += 1;
  return `p${index}`;
}
