// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket, WebSocketServer } from 'ws';
import type { Result } from '../../protocol/api.ts';
import { ActionsContext, createActions } from '../actions.ts';
import { ErrorBanner } from '../banners.tsx';
import { createSocketClient } from '../transport/socket-client.ts';
import { usePanel } from '../store/store.ts';
import type { ToolCallView } from '../store/transcript-types.ts';
import { CardFrame } from './ToolCard.tsx';

// Stop on a running card, through the real actions and socket client to a small host that
// records the channels it is asked on and answers `tool:cancel` as the test says.

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  cleanup();
  for (const step of cleanups.splice(0)) await step();
  usePanel.getState().showError(null);
});

interface Frame {
  id: number;
  channel: string;
  request: unknown;
}

/** `answer` is called for each tool:cancel; the reply waits until its promise settles. */
async function host(answer: () => Promise<Result<void>>) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const frames: Frame[] = [];
  wss.on('connection', (socket) => {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      frames.push(frame);
      const reply = frame.channel === 'tool:cancel' ? answer() : Promise.resolve({ ok: true, value: undefined });
      void reply.then((response) => socket.send(JSON.stringify({ id: frame.id, response })));
    });
  });
  const address = wss.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  // jsdom's Event class refuses the events Node's own WebSocket dispatches; ws's client speaks the same API.
  const api = createSocketClient({
    url: `ws://127.0.0.1:${port}/api?token=t`,
    WebSocket: NodeWebSocket as unknown as typeof WebSocket,
    backoff: () => 20,
  });
  cleanups.push(
    () => api.close(),
    () =>
      new Promise<void>((resolve) => {
        for (const socket of wss.clients) socket.terminate();
        wss.close(() => resolve());
      }),
  );
  return { api, frames };
}

const running: ToolCallView = {
  call_id: 'call_exec',
  name: 'exec',
  args: { command: 'sleep 30' },
  echo_kind: 'exec',
  state: 'running',
  is_error: false,
  approvals: [],
  nested: [],
};

function renderRunningCard(api: Parameters<typeof createActions>[0]) {
  render(
    <ActionsContext.Provider value={createActions(api, usePanel)}>
      <ErrorBanner />
      <CardFrame call={running} />
    </ActionsContext.Provider>,
  );
  return within(screen.getByTestId('tool-card')).getByTestId('card-stop') as HTMLButtonElement;
}

describe('Stop on a running card', () => {
  it('cancels that call by its id, never the turn, and waits for the answer disabled', async () => {
    let settle: (result: Result<void>) => void = () => undefined;
    const { api, frames } = await host(() => new Promise((resolve) => (settle = resolve)));
    const stop = renderRunningCard(api);
    fireEvent.click(stop);
    expect(stop.disabled).toBe(true);
    expect(stop.textContent).toBe('Stopping…');
    await expect.poll(() => frames).toEqual([{ id: 1, channel: 'tool:cancel', request: { call_id: 'call_exec' } }]);
    await act(async () => settle({ ok: true, value: undefined }));
    expect(frames.map((frame) => frame.channel)).not.toContain('turn:stop');
    expect(screen.queryByTestId('error-banner')).toBeNull();
  });

  it('shows why a refused cancel failed in the error banner, and the button comes back', async () => {
    const { api } = await host(async () => ({
      ok: false,
      error: 'Call call_exec is not running; it may have finished already.',
    }));
    const stop = renderRunningCard(api);
    fireEvent.click(stop);
    expect((await screen.findByTestId('error-banner')).textContent).toContain('Call call_exec is not running');
    await expect.poll(() => stop.disabled).toBe(false);
    expect(stop.textContent).toBe('Stop');
  });
});
