import electronUpdater from 'electron-updater';
import type { StoredSettings } from '../host/settings-store.ts';

// Updates are off unless the person turns them on in Settings and a feed is configured
// (settings.json's update_feed, or AETHERCODEX_UPDATE_FEED; the panel API cannot set it). The feed
// is a generic https: folder of electron-builder's latest*.yml and artifacts. electron-updater
// checks a download against the sha512 that same feed lists, so it catches a broken download, not
// a hostile feed: the code signature (Windows, macOS) is what ties an update to its publisher, and
// a Linux build has none, which is why the feed is never the page's to choose.

export type UpdateState = { enabled: false; reason: string } | { enabled: true; feed: string };

export function updatePlan(
  settings: StoredSettings,
  options: { packaged: boolean; env?: NodeJS.ProcessEnv },
): UpdateState {
  if (!settings.updates_enabled) return { enabled: false, reason: 'updates are turned off in Settings' };
  if (!options.packaged) return { enabled: false, reason: 'this is a development build' };
  const feed = settings.update_feed ?? (options.env ?? process.env)['AETHERCODEX_UPDATE_FEED'];
  if (!feed) return { enabled: false, reason: 'no update feed is configured' };
  if (!URL.canParse(feed) || new URL(feed).protocol !== 'https:')
    return { enabled: false, reason: `the update feed ${feed} is not an https: URL` };
  return { enabled: true, feed };
}

export async function checkForUpdates(plan: UpdateState): Promise<string> {
  if (!plan.enabled) return `Update check skipped: ${plan.reason}.`;
  const { autoUpdater } = electronUpdater;
  autoUpdater.autoDownload = true;
  autoUpdater.autoInstallOnAppQuit = true;
  autoUpdater.setFeedURL({ provider: 'generic', url: plan.feed });
  try {
    const result = await autoUpdater.checkForUpdatesAndNotify();
    return result
      ? `Update check: ${result.updateInfo.version} is the newest at ${plan.feed}.`
      : 'Update check: nothing to do.';
  } catch (error) {
    return `Update check against ${plan.feed} failed: ${(error as Error).message}`;
  }
}
