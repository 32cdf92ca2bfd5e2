import { describe, expect, it } from 'vitest';
import type { PanelHandlers, SettingsPatch } from '../../protocol/api.ts';
import { dispatchPanelRequest } from './panel-schemas.ts';

// The send key travels through the panel API like the other preferences: the two known values
// reach the settings handler, anything else is refused at the edge with a reason.

function recordingHandlers(patches: SettingsPatch[]): PanelHandlers {
  const handlers = {
    'settings:update': async (patch: SettingsPatch) => {
      patches.push(patch);
      return { ok: false, error: 'not stored in this test' };
    },
  };
  return handlers as unknown as PanelHandlers;
}

describe('send key over the panel API', () => {
  it('passes enter and ctrl-enter to the settings and refuses any other value', async () => {
    const patches: SettingsPatch[] = [];
    const handlers = recordingHandlers(patches);
    await dispatchPanelRequest(handlers, 'settings:update', { send_key: 'ctrl-enter' });
    await dispatchPanelRequest(handlers, 'settings:update', { send_key: 'enter' });
    const refused = await dispatchPanelRequest(handlers, 'settings:update', { send_key: 'shift-enter' });
    expect(patches).toEqual([{ send_key: 'ctrl-enter' }, { send_key: 'enter' }]);
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining('send_key') });
  });
});
