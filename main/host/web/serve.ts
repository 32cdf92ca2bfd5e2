import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ModelAdapterOptions } from '../../model/index.ts';
import { sessionsRoot } from '../../agent/sessions.ts';
import { endLeftProcessesOnce } from '../../agent/start-sweep.ts';
import { refreshModelCatalog } from '../../model/model-catalog.ts';
import { appVersion, catalogRefreshOptions, configHome, RENDERER_DIR } from '../app-paths.ts';
import { EnvKeyStore } from '../key-store.ts';
import { modelCatalog } from '../models.ts';
import { PanelService } from '../panel-service.ts';
import { SettingsStore } from '../settings-store.ts';
import { startWebHost, type WebHost } from './web-host.ts';

// `aether serve` without the command line: the panel service behind the web host, with settings
// in the config home and keys from the environment.

export interface ServeOptions {
  /** The workspace root, real path. */
  workspace: string;
  port?: number;
  /** This run's model; the stored setting is left as it is. */
  model?: string;
  sessions?: string;
  rendererDir?: string;
  env?: NodeJS.ProcessEnv;
  /** Origins besides the host's own, e.g. the renderer dev server (`npm run dev`) proxying /api. */
  allowOrigins?: string[];
  /** Passed to every model adapter (tests point the providers at a fixture server). */
  adapter?: ModelAdapterOptions;
}

export interface PanelHost {
  url: string;
  host: WebHost;
  service: PanelService;
  /** `reason`: what the log says of a turn this stops, when the host is being ended. */
  close(reason?: string): Promise<void>;
}

export async function servePanel(options: ServeOptions): Promise<PanelHost> {
  const env = options.env ?? process.env;
  const rendererDir = options.rendererDir ?? RENDERER_DIR;
  const built = await stat(path.join(rendererDir, 'index.html')).then(
    () => true,
    () => false,
  );
  if (!built)
    throw new Error(
      `The panel is not built: ${path.join(rendererDir, 'index.html')} is missing. Run \`npm run build\` first.`,
    );
  // What a crashed app process left running, in the background: nothing of this one runs yet.
  void endLeftProcessesOnce();
  // The model catalog from models.dev, at most daily, in the background: start-up never waits for it.
  void refreshModelCatalog(catalogRefreshOptions(env));
  const settings = new SettingsStore(configHome(env), options.model ? { overrides: { model: options.model } } : {});
  const service = new PanelService({
    workspace: options.workspace,
    sessionsRoot: sessionsRoot({ flag: options.sessions, env }),
    settings,
    keys: new EnvKeyStore(env),
    models: modelCatalog({
      ...(options.adapter ? { adapter: options.adapter } : {}),
      ...(options.model ? { extra: [options.model] } : {}),
    }),
    version: await appVersion(),
    mcpHome: configHome(env),
    home: configHome(env),
    // The browser is the window here: a person opens links from it, not from this process.
    openLink: async (url) => ({
      ok: false,
      error: `This panel runs in your browser; open the link from there: ${url}`,
    }),
  });
  const host = await startWebHost({
    handlers: service.handlers,
    events: service.events,
    rendererDir,
    extraOrigins: options.allowOrigins ?? [],
    ...(options.port !== undefined ? { port: options.port } : {}),
  });
  return {
    url: host.url,
    host,
    service,
    close: async (reason) => {
      await host.close();
      await service.close(reason);
    },
  };
}
