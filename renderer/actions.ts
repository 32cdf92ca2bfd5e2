import { createContext, useContext } from 'react';
import type { Bridge } from './transport/bridge.ts';
import type { PanelStore } from './store/store.ts';
import { actionKit } from './actions/action-kit.ts';
import { createSessionActions, type SessionActions } from './actions/session-actions.ts';
import { createSettingsActions, type SettingsActions } from './actions/settings-actions.ts';
import { createTurnActions, type TurnActions } from './actions/turn-actions.ts';
import { createWorkspaceActions, type WorkspaceActions } from './actions/workspace-actions.ts';

// What the person can do, as plain functions over the bridge and the store, in four groups
// (actions/): the open session's turn and calls, the sessions, the settings, the workspace and the
// host. Components reach them through a context, so a rendered card in a test gets its own.

export type PanelActions = TurnActions & SessionActions & SettingsActions & WorkspaceActions;

export function createActions(api: Bridge, store: PanelStore, clipboard?: Pick<Clipboard, 'writeText'>): PanelActions {
  const kit = actionKit(api, store);
  return {
    ...createTurnActions(kit),
    ...createSessionActions(kit, clipboard),
    ...createSettingsActions(kit),
    ...createWorkspaceActions(kit),
  };
}

export const ActionsContext = createContext<PanelActions | null>(null);

export function useActions(): PanelActions {
  const actions = useContext(ActionsContext);
  if (!actions) throw new Error('useActions needs an ActionsContext provider.');
  return actions;
}
