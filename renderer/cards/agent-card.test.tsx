// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEcho } from '../../protocol/agents.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { emptyMeter, reduceMeter } from '../store/meter.ts';
import { usePanel } from '../store/store.ts';
import type { ToolCallView } from '../store/transcript-types.ts';
import './registry.ts';
import { CardFrame } from './ToolCard.tsx';

// An agent's card: its task, its live status while the child runs, its answer and what it did,
// and, unfolded, the child's transcript with the same cards as the parent's.

afterEach(() => {
  cleanup();
  usePanel.getState().clearTranscript();
});

const childEvents: StatusEvent[] = [
  { type: 'user_message', turn_id: 't1', text: 'Look in alpha/.' },
  { type: 'turn_started', turn_id: 't1', model: 'anthropic:claude-fixture' },
  {
    type: 'assistant_message',
    turn_id: 't1',
    text: 'Listing it.',
    tool_calls: [{ call_id: 'l1', name: 'list_dir', args: { path: 'alpha' } }],
  },
  {
    type: 'tool_started',
    call_id: 'l1',
    name: 'list_dir',
    args: { path: 'alpha' },
    turn_id: 't1',
    description: { title: 'List alpha', subtitle: 'alpha' },
  },
  {
    type: 'tool_completed',
    call_id: 'l1',
    name: 'list_dir',
    execution_time: 3,
    is_error: false,
    result: { kind: 'text', text: 'alpha-secret.txt' },
  },
  { type: 'assistant_message', turn_id: 't1', text: 'alpha/ holds alpha-secret.txt.', tool_calls: [] },
];

const asked: string[] = [];
const actions = new Proxy({} as PanelActions, {
  get: (_target, name) =>
    name === 'agentTranscript'
      ? async (child: { session: string } | { call_id: string }) => {
          asked.push('session' in child ? child.session : `call ${child.call_id}`);
          // A call that started no child (it failed first) is not found.
          if ('call_id' in child && child.call_id !== 'a1')
            return { ok: false, error: `The agent call ${child.call_id} started no agent session.` };
          return { ok: true, value: childEvents };
        }
      : async () => undefined,
});

const echo: AgentEcho = {
  kind: 'agent',
  agent: 'explore',
  task: 'Look in alpha/.',
  session: '20261206-220000-abcdef',
  model: 'anthropic:claude-fixture',
  ending: 'completed',
  answer: 'alpha/ holds **alpha-secret.txt**.',
  steps: 2,
  input_tokens: 900,
  output_tokens: 300,
  cost: 0.12,
  changed: [],
  duration_ms: 4100,
};

function agentCall(overrides: Partial<ToolCallView>): ToolCallView {
  return {
    call_id: 'a1',
    name: 'agent',
    args: { task: echo.task, agent: 'explore' },
    echo_kind: 'agent',
    description: { title: 'Agent explore: Look in alpha/.', subtitle: 'explore', detail: echo.task },
    state: 'running',
    is_error: false,
    approvals: [],
    nested: [],
    ...overrides,
  };
}

function renderCard(call: ToolCallView) {
  render(
    <ActionsContext.Provider value={actions}>
      <CardFrame call={call} />
    </ActionsContext.Provider>,
  );
  return screen.getByTestId('tool-card');
}

describe('an agent card', () => {
  it('shows the task and what the child is doing while it runs', () => {
    const progress = {
      text: 'List alpha · step 2',
      cut_bytes: 0,
      total_bytes: 0,
      agent: {
        agent: 'explore',
        session: echo.session,
        tool: 'List alpha',
        steps: 1,
        input_tokens: 1200,
        output_tokens: 100,
        cost: 0.05,
        started_at: new Date().toISOString(),
      },
    };
    const card = renderCard(agentCall({ progress }));
    expect(within(card).getByTestId('agent-task').textContent).toBe('Look in alpha/.');
    const live = within(card).getByTestId('agent-live').textContent ?? '';
    expect(live).toContain('List alpha');
    expect(live).toContain('step 2 · 1.3k tokens · $0.0500');
  });

  it('shows the answer and a line of what it did once it ended', () => {
    const card = renderCard(agentCall({ state: 'done', echo, execution_time: 4100 }));
    expect(within(card).getByTestId('agent-answer').textContent).toBe('alpha/ holds alpha-secret.txt.');
    expect(within(card).getByTestId('agent-summary').textContent).toBe(
      'explore answered · 2 steps · 1.2k tokens · $0.1200 · 4.1 s · changed nothing',
    );
  });

  it("unfolds the child's transcript with its own cards", async () => {
    const card = renderCard(agentCall({ state: 'done', echo }));
    const toggle = within(card).getByTestId('agent-transcript-toggle');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    const transcript = await within(card).findByTestId('agent-transcript');
    const inner = await within(transcript).findAllByTestId('tool-card');
    expect(inner.map((element) => element.dataset.tool)).toEqual(['list_dir']);
    expect(
      within(transcript)
        .getAllByTestId('agent-child-text')
        .map((element) => element.textContent),
    ).toEqual(['Listing it.', 'alpha/ holds alpha-secret.txt.']);
    expect(asked).toContain(echo.session);
  });

  it('finds the transcript of a call a crash cut short by its call, and offers none where no child started', async () => {
    const interrupted = { kind: 'text', text: 'Interrupted: the session ended while agent was running.' };
    const card = renderCard(agentCall({ state: 'done', is_error: true, echo: interrupted }));
    fireEvent.click(await within(card).findByTestId('agent-transcript-toggle'));
    const transcript = await within(card).findByTestId('agent-transcript');
    expect((await within(transcript).findAllByTestId('tool-card')).map((element) => element.dataset.tool)).toEqual([
      'list_dir',
    ]);
    expect(asked).toContain('call a1');
    cleanup();
    const failed = renderCard(agentCall({ call_id: 'a2', state: 'done', is_error: true, echo: interrupted }));
    await within(failed).findByTestId('agent-task');
    await Promise.resolve();
    expect(asked).toContain('call a2');
    expect(within(failed).queryByTestId('agent-transcript-toggle')).toBeNull();
  });
});

describe("the parent's cost", () => {
  it("counts its agents' cost and keeps it apart", () => {
    const meter = [
      {
        type: 'step_usage',
        turn_id: 't1',
        model: 'anthropic:claude-fixture',
        usage: { input_tokens: 10, output_tokens: 5 },
        context_tokens: 15,
        cost: 0.3,
        session_cost: 0.3,
      },
      { type: 'tool_completed', call_id: 'a1', name: 'agent', execution_time: 1, is_error: false, result: echo },
    ].reduce((state, event) => reduceMeter(state, event as StatusEvent), emptyMeter());
    expect(meter.session_cost).toBe(0.3);
    expect(meter.agents_cost).toBe(0.12);
  });
});
