import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ActionsContext, createActions } from './actions.ts';
import { App } from './app.tsx';
import { bridge } from './transport/bridge.ts';
import { connectPanel } from './transport/connect.ts';
import { withOutbox } from './transport/outbox.ts';
import { withNotifications } from './notify/notifications.ts';
import { usePanel } from './store/store.ts';
import { warmHighlighter } from './cards/highlight-client.ts';
import './styles/base.css';
import './styles/transcript.css';
import './styles/cards.css';
import './styles/mcp.css';
import './styles/web-fetch.css';
import './styles/code.css';
import './styles/panel.css';
import './styles/meter.css';
import './styles/text.css';
import './styles/context.css';
import './styles/compaction.css';
import './styles/review.css';
import './styles/find.css';
import './styles/files.css';
import './styles/sessions.css';
import './styles/agents.css';

// Entry: choose the bridge, wire it to the store, render.

// A message sent while the host is out of reach waits for the connection (transport/outbox.ts).
// System notifications while the panel is not in front (notify/notifications.ts).
const api = withNotifications(withOutbox(bridge(), usePanel), usePanel);
const actions = createActions(api, usePanel);
connectPanel(api, usePanel);

const root = document.getElementById('root');
if (!root) throw new Error('The panel page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <ActionsContext.Provider value={actions}>
      <App />
    </ActionsContext.Provider>
  </StrictMode>,
);

// The highlighter loads once the panel is idle after its first paint, not when the first card with
// code is already on screen waiting for its colours.
if (typeof requestIdleCallback === 'function') requestIdleCallback(() => warmHighlighter(), { timeout: 3000 });
else setTimeout(() => warmHighlighter(), 1000);
