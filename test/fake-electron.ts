import { EventEmitter } from 'node:events';

// A stand-in for the parts of the `electron` module the shell uses, for unit tests only
// (`vi.mock('electron', () => import('./fake-electron.ts'))`): the Electron binary cannot run on
// these machines. It records what the shell asked for so tests can assert the security settings.

type Handler = (...args: never[]) => unknown;

export class FakeFrame {
  url: string;
  parent: FakeFrame | null;
  processId: number;
  routingId: number;

  constructor(url: string, options: { parent?: FakeFrame | null; processId?: number; routingId?: number } = {}) {
    this.url = url;
    this.parent = options.parent ?? null;
    this.processId = options.processId ?? 1;
    this.routingId = options.routingId ?? 1;
  }
}

export class FakeWebContents extends EventEmitter {
  mainFrame = new FakeFrame('app://panel/index.html');
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  readonly sent: Array<[string, unknown]> = [];

  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }

  send(channel: string, payload: unknown): void {
    this.sent.push([channel, payload]);
  }
}

export class BrowserWindow extends EventEmitter {
  static readonly created: BrowserWindow[] = [];
  readonly options: Record<string, unknown>;
  readonly webContents = new FakeWebContents();
  readonly loaded: string[] = [];
  destroyed = false;

  constructor(options: Record<string, unknown>) {
    super();
    this.options = options;
    BrowserWindow.created.push(this);
  }

  loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    return Promise.resolve();
  }

  loadFile(file: string): Promise<void> {
    this.loaded.push(`file://${file}`);
    return Promise.resolve();
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  show(): void {}
}

export const ipcMain = {
  handlers: new Map<string, Handler>(),
  handle(channel: string, handler: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  },
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  },
};

export const protocol = {
  privileged: [] as unknown[],
  handlers: new Map<string, Handler>(),
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    this.privileged.push(...schemes);
  },
  handle(scheme: string, handler: Handler): void {
    this.handlers.set(scheme, handler);
  },
};

export const dialog = {
  /** The button index the next message boxes answer with. */
  answers: [] as number[],
  shown: [] as unknown[],
  async showMessageBox(...args: unknown[]): Promise<{ response: number; checkboxChecked: boolean }> {
    this.shown.push(args.at(-1));
    return { response: this.answers.shift() ?? 1, checkboxChecked: false };
  },
};

export const shell = {
  opened: [] as string[],
  async openExternal(url: string): Promise<void> {
    this.opened.push(url);
  },
};

/** Reversible but visibly not plain text, so tests can tell that a key was sealed. */
export const safeStorage = {
  available: true,
  backend: 'gnome_libsecret' as string,
  isEncryptionAvailable(): boolean {
    return this.available;
  },
  getSelectedStorageBackend(): string {
    return this.backend;
  },
  encryptString(text: string): Buffer {
    return Buffer.from(`sealed:${Buffer.from(text).toString('hex')}`);
  },
  decryptString(sealed: Buffer): string {
    const text = sealed.toString();
    if (!text.startsWith('sealed:'))
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return Buffer.from(text.slice('sealed:'.length), 'hex').toString();
  },
};

/** A session object as lockDownSession sees it. */
export class FakeSession extends EventEmitter {
  requestHandler: Handler | null = null;
  checkHandler: Handler | null = null;
  deviceHandler: Handler | null = null;

  setPermissionRequestHandler(handler: Handler | null): void {
    this.requestHandler = handler;
  }

  setPermissionCheckHandler(handler: Handler | null): void {
    this.checkHandler = handler;
  }

  setDevicePermissionHandler(handler: Handler | null): void {
    this.deviceHandler = handler;
  }
}

export function resetFakeElectron(): void {
  BrowserWindow.created.length = 0;
  ipcMain.handlers.clear();
  protocol.privileged.length = 0;
  protocol.handlers.clear();
  dialog.answers.length = 0;
  dialog.shown.length = 0;
  shell.opened.length = 0;
  safeStorage.available = true;
  safeStorage.backend = 'gnome_libsecret';
}
