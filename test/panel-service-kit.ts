import { EnvKeyStore } from '../main/host/key-store.ts';
import { modelCatalog } from '../main/host/models.ts';
import { PanelService } from '../main/host/panel-service.ts';
import type { PanelServiceOptions } from '../main/host/panel-service-options.ts';

// The panel service as the host tests start it: their own folders and settings (usually naming the
// fixture model server), no stored keys, the model catalog without the machine's environment, and
// links that open nowhere. Anything else a test sets is passed as it is.

export function testPanelService(
  options: Pick<PanelServiceOptions, 'workspace' | 'sessionsRoot' | 'settings'> & Partial<PanelServiceOptions>,
): PanelService {
  return new PanelService({
    keys: new EnvKeyStore({}),
    models: modelCatalog({ adapter: { env: {} } }),
    version: '1',
    openLink: async () => ({ ok: true, value: undefined }),
    ...options,
  });
}
