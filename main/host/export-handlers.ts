import type { PanelHandlers } from '../../protocol/api.ts';
import { PROVIDER_IDS } from '../../protocol/values.ts';
import { exportSession } from '../agent/export/session-export.ts';
import type { Secret } from '../agent/export/secret-redaction.ts';
import type { KeyStore } from './key-store.ts';
import { attempt } from './panel-results.ts';

// The panel's Export…: a session of the sessions folder as Markdown or an HTML page, its text
// handed to the page, which saves it (a download in a browser; in the desktop app, the save dialog
// main/electron/window.ts shows for the panel's own files). Besides the environment's secrets, the
// keys this host keeps (the desktop app's encrypted store) are removed from it.

export interface ExportAccess {
  sessionsRoot: string;
  keys: KeyStore;
}

export function exportHandlers(access: ExportAccess): Pick<PanelHandlers, 'session:export'> {
  return {
    'session:export': ({ id, format }) =>
      attempt(async () =>
        exportSession({ root: access.sessionsRoot, id, format, secrets: await storedKeys(access.keys) }),
      ),
  };
}

async function storedKeys(keys: KeyStore): Promise<Secret[]> {
  const found = await Promise.all(
    PROVIDER_IDS.map(async (provider) => ({ name: `${provider} key`, value: (await keys.get(provider)) ?? '' })),
  );
  return found.filter((secret) => secret.value !== '');
}
