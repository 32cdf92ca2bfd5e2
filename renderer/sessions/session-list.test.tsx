// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket, WebSocketServer } from 'ws';
import type { Result, SessionSummary } from '../../protocol/api.ts';
import { ActionsContext, createActions } from '../actions.ts';
import { createSocketClient } from '../transport/socket-client.ts';
import { usePanel } from '../store/store.ts';
import { SessionList } from './SessionList.tsx';

// The session list against a real socket to a small host whose session folder changes behind the
// panel's back, the way the CLI or another window changes it.

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  cleanup();
  for (const step of cleanups.splice(0)) await step();
  usePanel.setState({ sessions: [], sessionsLoaded: false, session: null });
});

const session = (id: string, title: string): SessionSummary => ({
  id,
  title,
  workspace: '/w',
  created_at: '2025-01-01T00:00:00Z',
  updated_at: `2025-01-0${id.length}T00:00:00Z`,
});

/** A host that answers the session channels from `folder`, which the test changes at will. */
async function host(folder: SessionSummary[], answers: { delete?: Result<void> } = {}) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const channels: string[] = [];
  wss.on('connection', (socket) => {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { id: number; channel: string };
      // The agents menu asks for its list too; these tests follow the session channels.
      if (frame.channel.startsWith('session:')) channels.push(frame.channel);
      const response =
        frame.channel === 'session:list'
          ? { ok: true, value: [...folder] }
          : frame.channel === 'session:delete'
            ? (answers.delete ?? { ok: true, value: undefined })
            : { ok: false, error: 'not here' };
      socket.send(JSON.stringify({ id: frame.id, response }));
    });
  });
  const address = wss.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  // Node's own WebSocket dispatches events jsdom's Event class does not accept; ws's client speaks the same API.
  const api = createSocketClient({
    url: `ws://127.0.0.1:${port}/api?token=t`,
    backoff: () => 20,
    WebSocket: NodeWebSocket as unknown as typeof WebSocket,
  });
  cleanups.push(
    () => api.close(),
    () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  );
  return { api, channels };
}

function renderList(api: Parameters<typeof createActions>[0]) {
  render(
    <ActionsContext.Provider value={createActions(api, usePanel)}>
      <SessionList />
    </ActionsContext.Provider>,
  );
}

const titles = () =>
  screen.queryAllByTestId('session-item').map((item) => item.querySelector('.session-title')?.textContent);

describe('SessionList', () => {
  it('fetches the sessions again when it opens, showing one written elsewhere since', async () => {
    const folder = [session('s1', 'First')];
    const { api, channels } = await host(folder);
    usePanel.getState().setSessions([...folder]);
    folder.push(session('s22', 'Written by the CLI'));
    renderList(api);
    expect(await screen.findByText('Written by the CLI')).toBeTruthy();
    expect(titles()).toEqual(['Written by the CLI', 'First']);
    expect(channels).toEqual(['session:list']);
  });

  it('fetches the sessions again after a delete that failed because the session was gone', async () => {
    const folder = [session('s1', 'First'), session('s22', 'Gone already')];
    const { api, channels } = await host(folder, { delete: { ok: false, error: 'No session s22.' } });
    usePanel.getState().setSessions([...folder]);
    renderList(api);
    await expect.poll(() => channels).toEqual(['session:list']);
    await expect.poll(titles).toEqual(['Gone already', 'First']);
    folder.pop();
    const gone = screen.getAllByTestId('session-item').find((item) => item.getAttribute('data-session-id') === 's22');
    fireEvent.click(within(gone!).getByTestId('session-delete'));
    fireEvent.click(within(gone!).getByTestId('session-delete-confirm'));
    await expect.poll(titles).toEqual(['First']);
    expect(channels).toEqual(['session:list', 'session:delete', 'session:list']);
    expect(usePanel.getState().error).toBe('No session s22.');
  });
});
