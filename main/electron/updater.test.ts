import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../host/settings-store.ts';
import { checkForUpdates, updatePlan } from './updater.ts';

const autoUpdater = vi.hoisted(() => ({
  autoDownload: false,
  autoInstallOnAppQuit: false,
  feeds: [] as unknown[],
  setFeedURL(options: unknown) {
    this.feeds.push(options);
  },
  checkForUpdatesAndNotify: async () => ({ updateInfo: { version: '9.9.9' } }),
}));
vi.mock('electron-updater', () => ({ default: { autoUpdater } }));

const on = { ...DEFAULT_SETTINGS, updates_enabled: true, update_feed: 'https://updates.example/aether' };

describe('updates', () => {
  it('are off by default', () => {
    expect(
      updatePlan(DEFAULT_SETTINGS, { packaged: true, env: { AETHERCODEX_UPDATE_FEED: 'https://updates.example/' } }),
    ).toMatchObject({ enabled: false });
  });

  it('stay off without a feed', () => {
    const { update_feed: _unused, ...rest } = on;
    expect(updatePlan(rest, { packaged: true, env: {} })).toMatchObject({
      enabled: false,
      reason: 'no update feed is configured',
    });
  });

  it('stay off in a development build', () => {
    expect(updatePlan(on, { packaged: false, env: {} })).toMatchObject({ enabled: false });
  });

  it('refuse a feed that is not https:', () => {
    expect(updatePlan({ ...on, update_feed: 'http://updates.example/' }, { packaged: true, env: {} })).toMatchObject({
      enabled: false,
    });
  });

  it('use the feed from the environment when the setting names none', () => {
    const { update_feed: _unused, ...rest } = on;
    expect(updatePlan(rest, { packaged: true, env: { AETHERCODEX_UPDATE_FEED: 'https://mirror.example/' } })).toEqual({
      enabled: true,
      feed: 'https://mirror.example/',
    });
  });

  it('check the configured generic feed when turned on', async () => {
    const message = await checkForUpdates(updatePlan(on, { packaged: true, env: {} }));
    expect(autoUpdater.feeds).toEqual([{ provider: 'generic', url: 'https://updates.example/aether' }]);
    expect(message).toContain('9.9.9');
  });

  it('never touch the updater when off', async () => {
    autoUpdater.feeds.length = 0;
    expect(await checkForUpdates(updatePlan(DEFAULT_SETTINGS, { packaged: true }))).toContain('skipped');
    expect(autoUpdater.feeds).toEqual([]);
  });
});
