import type { Client, ConnectConfig, ServerHostKeyAlgorithm } from 'ssh2';
import { asError } from '../../../protocol/errors.ts';
import { authMethods, connectError } from './ssh-auth.ts';
import {
  fingerprint,
  hostKeyAlgorithmsFor,
  KnownHosts,
  knownHostName,
  keyTypeOf,
  rememberHostKey,
} from './known-hosts.ts';
import type { SshTarget } from './ssh-target.ts';
import { loadSsh2 } from './ssh2-module.ts';
import { ToolError } from '../tool.ts';
import { trackPool } from './open-pools.ts';

// One SSH connection per host, shared by the calls to it, with at most `maxChannels` commands at
// once (below the server's MaxSessions, 10 by default in OpenSSH). Host keys are checked before
// anything is sent; authentication is by agent or key file only; agent forwarding stays off.

export interface PoolOptions {
  maxChannels: number;
  keepaliveIntervalMs: number;
  keepaliveCountMax: number;
  /** Handshake and authentication, not counting time spent waiting for the person. */
  connectTimeoutMs: number;
  /** An unused connection closes after this long. */
  idleCloseMs: number;
}

export const DEFAULT_POOL_OPTIONS: PoolOptions = {
  maxChannels: 8,
  keepaliveIntervalMs: 15_000,
  keepaliveCountMax: 3,
  connectTimeoutMs: 20_000,
  idleCloseMs: 60_000,
};

/** Asks the person to trust an unknown host key; false when refused or nobody can answer. */
export type TrustAsker = (question: { title: string; detail: string }) => Promise<boolean>;

export interface ChannelLease {
  client: Client;
  /** Why the connection ended, once it has. */
  lostReason(): string | null;
  onLost(listener: (reason: string) => void): () => void;
  release(): void;
}

class PooledConnection {
  readonly client: Client;
  active = 0;
  lost: string | null = null;
  readonly waiting: (() => void)[] = [];
  readonly lostListeners = new Set<(reason: string) => void>();
  idleTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(client: Client) {
    this.client = client;
  }
}

// Every pool in the process is tracked (open-pools.ts), so a one-shot command can close them all.
export { closeSshConnections } from './open-pools.ts';

export class SshPool {
  private readonly options: PoolOptions;
  private readonly connections = new Map<string, Promise<PooledConnection>>();
  readonly counters = { connectionsOpened: 0, peakChannels: 0 };

  constructor(options: Partial<PoolOptions> = {}) {
    this.options = { ...DEFAULT_POOL_OPTIONS, ...options };
    trackPool(this);
  }

  /** A channel slot on the host's connection, connecting first when there is none. */
  async acquire(target: SshTarget, ask: TrustAsker, signal: AbortSignal): Promise<ChannelLease> {
    let pending = this.connections.get(target.label);
    if (!pending) {
      pending = this.connect(target, ask);
      this.connections.set(target.label, pending);
      const failed = pending;
      failed.catch(() => {
        if (this.connections.get(target.label) === failed) this.connections.delete(target.label);
      });
    }
    const connection = await abortable(pending, signal);
    if (connection.lost) {
      this.connections.delete(target.label);
      return this.acquire(target, ask, signal);
    }
    await this.slot(connection, signal);
    if (connection.lost) {
      // The link dropped while this call waited for a slot: start over on a fresh connection.
      connection.active -= 1;
      return this.acquire(target, ask, signal);
    }
    this.counters.peakChannels = Math.max(this.counters.peakChannels, connection.active);
    let released = false;
    return {
      client: connection.client,
      lostReason: () => connection.lost,
      onLost: (listener) => {
        connection.lostListeners.add(listener);
        return () => connection.lostListeners.delete(listener);
      },
      release: () => {
        if (released) return;
        released = true;
        this.release(connection);
      },
    };
  }

  /** Closes every connection (the app is quitting, or a test is done). */
  async closeAll(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(
      all.map((pending) =>
        pending.then(
          (connection) => connection.client.end(),
          () => undefined,
        ),
      ),
    );
  }

  private slot(connection: PooledConnection, signal: AbortSignal): Promise<void> {
    if (connection.idleTimer) clearTimeout(connection.idleTimer);
    connection.idleTimer = null;
    if (connection.active < this.options.maxChannels) {
      connection.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = (): void => {
        signal.removeEventListener('abort', onAbort);
        connection.active += 1;
        resolve();
      };
      const onAbort = (): void => {
        const index = connection.waiting.indexOf(grant);
        if (index !== -1) connection.waiting.splice(index, 1);
        reject(abortError());
      };
      connection.waiting.push(grant);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private release(connection: PooledConnection): void {
    connection.active -= 1;
    const next = connection.waiting.shift();
    if (next) return next();
    if (connection.active === 0 && !connection.lost) {
      connection.idleTimer = setTimeout(() => {
        // Marked before it ends, so a call arriving before the close event connects afresh.
        connection.lost ??= 'the connection was closed after being idle';
        connection.client.end();
      }, this.options.idleCloseMs);
      connection.idleTimer.unref();
    }
  }

  private async connect(target: SshTarget, ask: TrustAsker): Promise<PooledConnection> {
    const book = await KnownHosts.load(target.knownHostsFiles);
    const name = target.hostKeyName === target.host ? knownHostName(target.host, target.port) : target.hostKeyName;
    const auth = await authMethods(target);
    const appKnownHosts = target.knownHostsFiles.at(-1)!;
    const ssh2 = await loadSsh2();
    this.counters.connectionsOpened += 1;

    return new Promise((resolve, reject) => {
      const client = new ssh2.Client();
      let refusal: string | null = null;
      let lastError: Error | null = null;
      let settled = false;
      let timer: ReturnType<typeof setTimeout> | null = null;
      const startTimer = (): void => {
        timer = setTimeout(
          () =>
            fail(
              new ToolError(
                `Timed out connecting to ${target.label} after ${this.options.connectTimeoutMs / 1000} s. Check that the host is reachable.`,
              ),
            ),
          this.options.connectTimeoutMs,
        );
      };
      const stopTimer = (): void => {
        if (timer) clearTimeout(timer);
        timer = null;
      };
      const fail = (error: Error): void => {
        if (settled) return;
        settled = true;
        stopTimer();
        client.destroy();
        reject(error);
      };

      const connection = new PooledConnection(client);
      client.on('ready', () => {
        settled = true;
        stopTimer();
        resolve(connection);
      });
      client.on('error', (error: Error & { level?: string }) => {
        lastError = error;
        if (!settled) fail(refusal ? new ToolError(refusal) : connectError(error, target, auth.notes));
      });
      client.on('close', () => {
        if (!settled)
          return fail(new ToolError(refusal ?? `The connection to ${target.label} closed before it was ready.`));
        connection.lost ??= lastError ? lastError.message : 'the server closed the connection';
        if (this.connections.get(target.label) !== undefined) void this.forget(target.label, connection);
        for (const listener of connection.lostListeners) listener(connection.lost);
        for (const grant of connection.waiting.splice(0)) grant();
      });

      const hostVerifier = (key: Buffer, verify: (valid: boolean) => void): void => {
        const verdict = book.verify(name, key);
        const presented = `${keyTypeOf(key)} ${fingerprint(key)}`;
        if (verdict.kind === 'known') return verify(true);
        if (verdict.kind === 'revoked') {
          refusal = `Refused: ${target.label} presented the host key ${presented}, which ${verdict.where} marks as revoked.`;
          return verify(false);
        }
        if (verdict.kind === 'changed') {
          const expected = verdict.expected
            .map((line) => `${line.keyType} ${line.fingerprint} (${line.where})`)
            .join(', ');
          refusal =
            `Refused: the host key of ${target.label} has changed. The server presented ${presented}, but the known key is ${expected}. ` +
            `Someone may be intercepting the connection, or the host was reinstalled. If you know the key changed, remove the old entry ` +
            `(ssh-keygen -R '${name}', and from ${appKnownHosts}) and try again.`;
          return verify(false);
        }
        stopTimer();
        const others =
          verdict.otherTypes.length > 0
            ? `\nThe host is known by other key types (${verdict.otherTypes.join(', ')}), not this one.`
            : '';
        void (async () => {
          const trusted = await ask({
            title: `Trust the host key of ${target.label}?`,
            detail: `The authenticity of ${target.label} can't be established.\n${presented}${others}`,
          }).catch(() => false);
          if (!trusted) {
            refusal = `Refused: the host key of ${target.label} (${presented}) is not known and was not approved.`;
            return verify(false);
          }
          // Not being able to remember it only means the person is asked again next time.
          await rememberHostKey(appKnownHosts, name, key).catch(() => undefined);
          startTimer();
          verify(true);
        })();
      };

      const preferred = hostKeyAlgorithmsFor(book.typesFor(name)).filter(
        (algorithm): algorithm is ServerHostKeyAlgorithm => SUPPORTED_HOST_KEYS.has(algorithm),
      );
      const config: ConnectConfig = {
        host: target.host,
        port: target.port,
        username: target.user,
        authHandler: auth.methods,
        hostVerifier,
        agentForward: false,
        readyTimeout: 0,
        keepaliveInterval: this.options.keepaliveIntervalMs,
        keepaliveCountMax: this.options.keepaliveCountMax,
        ...(preferred.length > 0
          ? { algorithms: { serverHostKey: { prepend: preferred, append: [], remove: [] } } }
          : {}),
      };
      startTimer();
      client.connect(config);
    });
  }

  private async forget(label: string, connection: PooledConnection): Promise<void> {
    const current = await this.connections.get(label)?.catch(() => null);
    if (current === connection) this.connections.delete(label);
  }
}

const SUPPORTED_HOST_KEYS: ReadonlySet<string> = new Set([
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'rsa-sha2-512',
  'rsa-sha2-256',
  'ssh-rsa',
]);

function abortError(): Error {
  const error = new Error('The call was cancelled.');
  error.name = 'AbortError';
  return error;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(asError(error));
      },
    );
  });
}
