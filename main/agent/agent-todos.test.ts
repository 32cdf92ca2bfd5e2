import { afterEach, describe, expect, it } from 'vitest';
import { readSessionFile } from '../session/replay.ts';
import { conversationOf, startRig, type Rig } from '../../test/agent-kit.ts';

// The todo list the model keeps with todo_write, the person's changes to it, and what the model is
// told of them, checked on the requests the fixture model received.

let rig: Rig | undefined;

afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const LIST = [
  { id: 'read', text: 'Read the code', status: 'done' },
  { id: 'fix', text: 'Fix the bug', status: 'in_progress' },
  { id: 'test', text: 'Run the tests', status: 'pending' },
];

describe('todo_write', () => {
  it('keeps the list the model wrote, durable, with a card of its own kind', async () => {
    rig = await startRig('anthropic', {
      script: {
        steps: [{ tool_calls: [{ id: 'todo1', name: 'todo_write', args: { todos: LIST } }] }, { text: ['Ok.'] }],
      },
    });
    rig.session.send('Plan it');
    await rig.session.idle();

    expect(rig.session.todoList()).toEqual(LIST);
    expect(rig.recorder.ofType('todos')).toMatchObject([{ by: 'model', todos: LIST }]);
    expect(rig.recorder.ofType('tool_completed')[0]).toMatchObject({
      name: 'todo_write',
      is_error: false,
      result: { kind: 'todos', todos: LIST },
    });
    expect(rig.recorder.ofType('tool_started')[0]).toMatchObject({ description: { subtitle: '1 of 3 done' } });
    expect(conversationOf(rig.server.requests[1]!.body).at(-1)).toMatchObject({
      kind: 'tool',
      content: expect.stringContaining('Todo list saved: 1 of 3 done.\n[x] read: Read the code\n[~] fix: Fix the bug'),
    });
  });

  it('refuses a list with two items of one id, and the list stays as it was', async () => {
    const twice = [LIST[0], { ...LIST[1], id: 'read' }];
    rig = await startRig('openai', {
      script: { steps: [{ tool_calls: [{ id: 'bad', name: 'todo_write', args: { todos: twice } }] }, {}] },
    });
    rig.session.send('Plan it');
    await rig.session.idle();

    expect(rig.recorder.ofType('tool_completed')[0]).toMatchObject({ is_error: true });
    expect(conversationOf(rig.server.requests[1]!.body).at(-1)).toMatchObject({
      content: expect.stringContaining('two items share one'),
    });
    expect(rig.session.todoList()).toEqual([]);
  });
});

describe("the person's changes", () => {
  it('reach the model at its next step, verbatim, and replay to the same context', async () => {
    rig = await startRig('anthropic', {
      script: {
        steps: [
          { tool_calls: [{ id: 'todo1', name: 'todo_write', args: { todos: LIST } }] },
          { tool_calls: [{ id: 'h', name: 'hold', args: { name: 'h1' } }] },
          { text: ['Seen.'] },
        ],
      },
    });
    rig.session.send('Work through it');
    await rig.kit.running('h1');
    const ticked = [
      LIST[0],
      { ...LIST[1], status: 'done' },
      { id: 'docs', text: 'Update the docs', status: 'pending' },
    ];
    expect(await rig.session.setTodos(ticked)).toEqual({ ok: true, value: ticked });
    expect(await rig.session.setTodos([{ id: '', text: 'x', status: 'done' }])).toMatchObject({
      ok: false,
      error: /The todo list was not changed/,
    });
    rig.kit.release('h1');
    await rig.session.idle();

    const sent = conversationOf(rig.server.requests[2]!.body);
    expect(sent.at(-2)).toEqual({ kind: 'tool', id: 'h', content: 'released h1' });
    expect(sent.at(-1)).toEqual({
      kind: 'user',
      text:
        'The person changed the todo list. This is the list now; keep to it and update it with todo_write:\n' +
        '<todos>\n[x] read: Read the code\n[x] fix: Fix the bug\n[ ] docs: Update the docs\n</todos>',
    });
    expect(rig.recorder.ofType('todos').map((event) => event.by)).toEqual(['model', 'person']);
    expect((await readSessionFile(rig.session.file)).context).toEqual(rig.session.context());
  });

  it('is told again, whole, after a compaction summarised the context', async () => {
    rig = await startRig('openai', {
      script: {
        steps: [
          { tool_calls: [{ id: 'todo1', name: 'todo_write', args: { todos: LIST } }] },
          { text: ['Listed.'] },
          { text: ['<summary>We planned three things.</summary>'] },
          { text: ['Going on.'] },
        ],
      },
    });
    rig.session.send('Plan it');
    await rig.session.idle();
    const compacted = await rig.session.compact();
    expect(compacted).toMatchObject({ ok: true });
    rig.session.send('Go on');
    await rig.session.idle();

    const last = conversationOf(rig.server.requests.at(-1)!.body);
    const note = last.find((entry) => entry.kind === 'user' && entry.text.startsWith('The todo list, as it stands'));
    expect(note).toEqual({
      kind: 'user',
      text:
        'The todo list, as it stands (kept verbatim through the compaction):\n' +
        '<todos>\n[x] read: Read the code\n[~] fix: Fix the bug\n[ ] test: Run the tests\n</todos>',
    });
    expect((await readSessionFile(rig.session.file)).context).toEqual(rig.session.context());
  });
});
