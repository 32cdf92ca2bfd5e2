import type { PanelHandlers } from '../../protocol/api.ts';
import { attempt } from './panel-results.ts';
import type { PromptHistoryFile } from './prompt-history.ts';

// The message box's prompt history (↑/↓), kept by the host for its workspace (prompt-history.ts):
// the same for the desktop app and the web host, and for every window of either.

export function historyHandlers(
  history: PromptHistoryFile,
): Pick<PanelHandlers, 'history:list' | 'history:add' | 'history:forget' | 'history:import'> {
  return {
    'history:list': () => attempt(() => history.list()),
    'history:add': ({ text }) => attempt(() => history.add(text)),
    'history:forget': ({ text }) => attempt(() => history.forget(text)),
    'history:import': ({ prompts }) => attempt(() => history.addOlder(prompts)),
  };
}
