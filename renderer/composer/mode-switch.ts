import { useState } from 'react';
import { settingInfoOf } from '../../protocol/settings.ts';
import type { PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';

// The composer's two cycles, by button or key: the permission mode (Shift+Tab in the empty box,
// ask → plan → auto) and the reasoning effort (Alt+T). Each change is said in a polite live
// region, so a person who cannot see the buttons hears what the next turn will do.

/** What a screen reader hears once the mode changed: its name and what it lets the model do. */
export function modeSaid(mode: string): string {
  const meaning = settingInfoOf('permission_mode').options?.[mode];
  return meaning ? `Permission mode: ${mode}. ${meaning}.` : `Permission mode: ${mode}.`;
}

export function effortSaid(effort: string): string {
  return `Reasoning effort: ${effort}.`;
}

export function useModeSwitch(actions: PanelActions): {
  said: string;
  cycleMode: () => Promise<void>;
  cycleEffort: () => Promise<void>;
} {
  const [said, setSaid] = useState('');
  const settings = () => usePanel.getState().settings;
  return {
    said,
    cycleMode: async () => {
      await actions.cyclePermissionMode();
      setSaid(modeSaid(settings()?.permission_mode ?? 'ask'));
    },
    cycleEffort: async () => {
      await actions.cycleEffort();
      setSaid(effortSaid(settings()?.effort ?? 'medium'));
    },
  };
}
