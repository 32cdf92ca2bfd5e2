import { describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_RULES } from '../../protocol/sandbox.ts';
import type { PanelActions } from '../actions.ts';
import type { PanelState } from '../store/store.ts';
import { sandboxCommand } from './sandbox-command.ts';

// `/sandbox` through the settings it changes: on and off switch the mode, allow and forbid edit the
// hosts, anything else says how to use it and changes nothing.

function context(mode = 'ask') {
  const settings: Record<string, unknown> = { permission_mode: mode, sandbox: { ...DEFAULT_SANDBOX_RULES } };
  const patches: Record<string, unknown>[] = [];
  const actions = {
    updateSettings: async (patch: Record<string, unknown>) => {
      patches.push(patch);
      Object.assign(settings, patch);
    },
  } as unknown as PanelActions;
  const state = () => ({ settings }) as unknown as PanelState;
  return { ctx: { actions, state, choices: [] }, settings, patches };
}

describe('/sandbox', () => {
  it('shows the mode and the rules', async () => {
    const { ctx, patches } = context();
    const outcome = await sandboxCommand('', ctx);
    expect(outcome.notice?.title).toBe('Sandbox: off — commands ask first');
    expect(outcome.notice?.lines[0]).toContain('no network');
    expect(patches).toEqual([]);
  });

  it('turns the sandbox mode on and off', async () => {
    const { ctx, settings } = context();
    expect((await sandboxCommand('on', ctx)).notice?.title).toBe(
      'Sandbox: on — commands run without asking, inside it',
    );
    expect(settings['permission_mode']).toBe('sandbox');
    await sandboxCommand('off', ctx);
    expect(settings['permission_mode']).toBe('ask');
  });

  it('allows and forbids a host, and refuses what is not one', async () => {
    const { ctx, settings, patches } = context('sandbox');
    await sandboxCommand('allow registry.npmjs.org', ctx);
    expect((settings['sandbox'] as { network: string[] }).network).toEqual(['registry.npmjs.org']);
    await sandboxCommand('forbid registry.npmjs.org', ctx);
    expect((settings['sandbox'] as { network: string[] }).network).toEqual([]);
    const refused = await sandboxCommand('allow not/a/host', ctx);
    expect(refused).toMatchObject({ done: false, notice: { tone: 'error' } });
    expect((await sandboxCommand('maybe', ctx)).notice?.lines[0]).toContain('/sandbox on, /sandbox off');
    expect(patches).toHaveLength(2);
  });
});
