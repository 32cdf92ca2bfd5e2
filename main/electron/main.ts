import path from 'node:path';
import { catalogRefreshOptions, configHome } from '../host/app-paths.ts';
import { refreshModelCatalog } from '../model/model-catalog.ts';
import { app, dialog, powerMonitor, session, type BrowserWindow } from 'electron';
import { errorMessage } from '../../protocol/errors.ts';
import { modelCatalog } from '../host/models.ts';
import { PanelService } from '../host/panel-service.ts';
import { showSystemNotice } from './notifications.ts';
import { SettingsStore, type StoredSettings } from '../host/settings-store.ts';
import { finishLateAppends } from '../agent/process-end.ts';
import { sessionsRoot } from '../agent/sessions.ts';
import { workspaceRoot } from '../agent/workspace-files.ts';
import { endLeftProcessesOnce } from '../agent/start-sweep.ts';
import { AppEnding } from './app-ending.ts';
import { confirmInDialog } from './confirm-dialog.ts';
import { QuitGuard } from './quit-guard.ts';
import { handleAppProtocol, registerAppScheme } from './app-protocol.ts';
import { registerPanelIpc } from './ipc.ts';
import { editorOpener } from './editor-open.ts';
import { confirmAndOpenExternal, openSignInPage } from './links.ts';
import { SafeStorageKeyStore } from './safe-key-store.ts';
import { SafeStorageSecretStore } from './safe-secret-store.ts';
import { checkForUpdates, updatePlan } from './updater.ts';
import { createMainWindow, hardenWebContents, lockDownSession } from './window.ts';

// The desktop app: one secure window on the built renderer, the panel service behind its IPC.
// Layout of the bundle (npm run build): out/main/index.js (this), out/preload/index.cjs,
// out/renderer/index.html.

const here = import.meta.dirname;
const PRELOAD = path.join(here, '..', 'preload', 'index.cjs');
const RENDERER = path.join(here, '..', 'renderer');

// Before `ready`: the app:// scheme's privileges, the sandbox for every renderer, and where
// settings, keys and sessions live ($AETHERCODEX_HOME moves them, as for the web host).
registerAppScheme();
app.enableSandbox();
const home = process.env['AETHERCODEX_HOME'];
if (home) app.setPath('userData', path.resolve(home));

// Every web contents, whatever creates it, starts with navigation, pop-ups and webviews denied.
app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, () => undefined));

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let window: BrowserWindow | null = null;
  let service: PanelService | null = null;

  app.on('second-instance', () => {
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });

  // However the app ends, the running turn is stopped and recorded so and what it started ends too
  // (app-ending.ts); the session finishes its last write before the process ends.
  const ending = new AppEnding({ app, close: (reason) => service?.close(reason) ?? null });
  ending.listenToSignals(process);

  // The person's Quit, or closing the window, while background processes run asks first (quit-guard.ts).
  const guard = new QuitGuard({
    anyRunning: () => service?.hasRunningProcesses() ?? false,
    running: async () => {
      const listed = await service?.handlers['process:list']();
      return listed?.ok ? listed.value : [];
    },
    ask: (question) => confirmInDialog(window, question),
    endingAnyway: () => ending.endingAnyway,
  });
  app.on('before-quit', (event) => guard.check(event, () => app.quit()));

  app.on('window-all-closed', () => app.quit());

  app.on('will-quit', (event) => {
    // Lines another program appended to a file a write just replaced: carried now, not lost at exit.
    finishLateAppends();
    ending.willQuit(event);
  });

  app
    .whenReady()
    .then(async () => {
      lockDownSession(session.defaultSession);
      handleAppProtocol(RENDERER);
      ending.watchPower(powerMonitor);
      // What a crashed run of the app left running, in the background.
      void endLeftProcessesOnce();
      // The model catalog from models.dev, at most daily, in the background.
      void refreshModelCatalog(catalogRefreshOptions(process.env));
      const workspace = await chooseWorkspace();
      if (!workspace) {
        app.quit();
        return;
      }
      const userData = app.getPath('userData');
      const model = argument('--model');
      const settings = new SettingsStore(userData, model ? { overrides: { model } } : {});
      const openLink = (url: string) =>
        confirmAndOpenExternal(url, window && !window.isDestroyed() ? window : undefined);
      service = new PanelService({
        workspace,
        sessionsRoot: sessionsRoot({ fallback: path.join(userData, 'sessions') }),
        settings,
        keys: new SafeStorageKeyStore(userData),
        mcpSecrets: new SafeStorageSecretStore(userData),
        models: modelCatalog(model ? { extra: [model] } : {}),
        version: app.getVersion(),
        mcpHome: configHome(),
        home: configHome(),
        openLink,
        openSignIn: openSignInPage,
        onSettingsChanged: (next) => void runUpdateCheck(next),
        notify: (notice, clicked) => showSystemNotice(notice, () => window, clicked),
        openInEditor: editorOpener(() => window),
      });
      window = createMainWindow({ preload: PRELOAD, openLink, title: `ÆtherCodex — ${path.basename(workspace)}` });
      ending.watchWindow(window);
      const opened = window;
      opened.on('close', (event) => guard.check(event, () => opened.close()));
      registerPanelIpc({ window, handlers: service.handlers, events: service.events });
      // A settings file that cannot be used leaves updates off (the default); the panel says why.
      void runUpdateCheck((await settings.status()).settings);
    })
    .catch((error: unknown) => {
      dialog.showErrorBox('ÆtherCodex could not start', errorMessage(error));
      app.exit(1);
    });
}

/** `--name value` or `--name=value` from the command line. */
function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  if (index >= 0) return process.argv[index + 1];
  return process.argv.find((arg) => arg.startsWith(`${name}=`))?.slice(name.length + 1);
}

/** `--workspace DIR` on the command line, else a folder picker; null when the person cancels. */
async function chooseWorkspace(): Promise<string | null> {
  const given = argument('--workspace');
  if (given) return workspaceRoot(given);
  const picked = await dialog.showOpenDialog({
    title: 'Choose the folder ÆtherCodex works in',
    properties: ['openDirectory', 'createDirectory'],
  });
  const folder = picked.canceled ? undefined : picked.filePaths[0];
  return folder ? workspaceRoot(folder) : null;
}

let updateChecked = false;

async function runUpdateCheck(settings: StoredSettings): Promise<void> {
  const plan = updatePlan(settings, { packaged: app.isPackaged });
  if (!plan.enabled || updateChecked) return;
  updateChecked = true;
  console.log(await checkForUpdates(plan));
}
