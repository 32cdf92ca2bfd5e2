import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SSHConfig from 'ssh-config';
import { ToolError } from '../tool.ts';

// Where `ssh_exec` connects: an alias from ~/.ssh/config (HostName, User, Port, IdentityFile) or
// `user@host:port`. Every path it reads is a parameter, so tests point it at temp files.

export interface SshPaths {
  /** Home folder: `~` in the config, and the default identity files. */
  home: string;
  /** The user's ssh config (~/.ssh/config). */
  config: string;
  /** The user's known-hosts files, read only. */
  knownHosts: string[];
  /** The app's own known-hosts file: keys the person approved here are remembered in it. */
  appKnownHosts: string;
  /** The ssh-agent socket ($SSH_AUTH_SOCK); undefined for none. */
  agentSocket: string | undefined;
}

export function defaultSshPaths(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): SshPaths {
  return {
    home,
    config: path.join(home, '.ssh', 'config'),
    knownHosts: [
      path.join(home, '.ssh', 'known_hosts'),
      path.join(home, '.ssh', 'known_hosts2'),
      '/etc/ssh/ssh_known_hosts',
    ],
    appKnownHosts: path.join(home, '.aethercodex', 'known_hosts'),
    agentSocket: env['SSH_AUTH_SOCK'] || undefined,
  };
}

export interface SshTarget {
  /** What the call named (an alias or `user@host:port`). */
  spec: string;
  host: string;
  port: number;
  user: string;
  /** Identity files to try after the agent, existing or not. */
  identityFiles: string[];
  /** The agent socket for this host (IdentityAgent overrides $SSH_AUTH_SOCK). */
  agentSocket: string | undefined;
  /** The name known_hosts lists the host under (HostKeyAlias, else the host). */
  hostKeyName: string;
  /** Known-hosts files to read (UserKnownHostsFile overrides the defaults), plus the app's own. */
  knownHostsFiles: string[];
  /** `user@host:port`, the pool's key and the name in messages. */
  label: string;
}

const DEFAULT_IDENTITIES = ['id_ed25519', 'id_ecdsa', 'id_rsa'];

export interface HostSpec {
  user?: string;
  host: string;
  port?: number;
}

/** `[ssh://][user@]host[:port]`, with `[v6]:port` for IPv6 addresses. */
export function parseHostSpec(spec: string): HostSpec {
  let rest = spec.trim().replace(/^ssh:\/\//, '');
  let user: string | undefined;
  const at = rest.lastIndexOf('@');
  if (at !== -1) {
    user = rest.slice(0, at);
    rest = rest.slice(at + 1);
  }
  let host = rest;
  let port: number | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(rest);
  if (bracketed) {
    host = bracketed[1]!;
    if (bracketed[2]) port = Number(bracketed[2]);
  } else if ((rest.match(/:/g) ?? []).length === 1) {
    const [name, digits] = rest.split(':');
    if (!digits || !/^\d+$/.test(digits))
      throw new ToolError(
        `"${spec}" has no valid port after the colon. Write user@host:port, e.g. deploy@example.com:2222.`,
      );
    host = name!;
    port = Number(digits);
  }
  if (!host || /[\s/]/.test(host) || host.startsWith('-') || user === '') {
    throw new ToolError(`"${spec}" is not a host. Use an alias from ~/.ssh/config or user@host:port.`);
  }
  if (port !== undefined && (port < 1 || port > 65535))
    throw new ToolError(`Port ${port} in "${spec}" is out of range (1–65535).`);
  return { ...(user ? { user } : {}), host, ...(port ? { port } : {}) };
}

export async function resolveTarget(spec: string, paths: SshPaths): Promise<SshTarget> {
  const parsed = parseHostSpec(spec);
  const text = await readFile(paths.config, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw new ToolError(`Could not read the ssh config ${paths.config}: ${error.message}`);
  });
  // `Match exec` would run a shell command from the config: never from inside the panel.
  const computed = SSHConfig.parse(text).compute(parsed.host, { matchExec: false, ignoreCase: true });
  // Keys come lowercased (directives are case-insensitive).
  const one = (key: string): string | undefined => {
    const value = computed[key];
    return Array.isArray(value) ? value[0] : value;
  };
  const many = (key: string): string[] => {
    const value = computed[key];
    if (value === undefined) return [];
    return (Array.isArray(value) ? value : [value]).flatMap((entry) => entry.split(/\s+/)).filter(Boolean);
  };
  if (one('proxyjump') || one('proxycommand')) {
    throw new ToolError(
      `${spec} is reached through ProxyJump/ProxyCommand in ${paths.config}, which ssh_exec does not support. Connect to a host it can reach directly.`,
    );
  }

  const host = one('hostname') ?? parsed.host;
  const portText = parsed.port === undefined ? one('port') : String(parsed.port);
  const port = portText === undefined ? 22 : Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new ToolError(`The port for ${spec} (${portText}) is not a valid port.`);
  const user = parsed.user ?? one('user') ?? os.userInfo().username;
  const expand = (value: string): string =>
    expandTokens(value, { home: paths.home, user, host, port, alias: parsed.host });

  const configured = many('identityfile').map(expand);
  const identityFiles =
    configured.length > 0 ? configured : DEFAULT_IDENTITIES.map((name) => path.join(paths.home, '.ssh', name));
  const identityAgent = one('identityagent');
  const agentSocket =
    identityAgent === undefined || identityAgent === 'SSH_AUTH_SOCK'
      ? paths.agentSocket
      : identityAgent.toLowerCase() === 'none'
        ? undefined
        : expand(identityAgent);
  const userKnownHosts = many('userknownhostsfile').map(expand);
  const knownHostsFiles = [...(userKnownHosts.length > 0 ? userKnownHosts : paths.knownHosts), paths.appKnownHosts];

  const label = `${user}@${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    spec,
    host,
    port,
    user,
    identityFiles,
    agentSocket,
    hostKeyName: one('hostkeyalias') ?? host,
    knownHostsFiles,
    label,
  };
}

/** The ssh_config tokens that make sense here: ~, %d %u %h %r %p %n %%. */
function expandTokens(
  value: string,
  context: { home: string; user: string; host: string; port: number; alias: string },
): string {
  const tilde = value === '~' || value.startsWith('~/') ? path.join(context.home, value.slice(1)) : value;
  return tilde.replace(/%([%dhnpru])/g, (_, token: string) => {
    switch (token) {
      case '%':
        return '%';
      case 'd':
        return context.home;
      case 'h':
        return context.host;
      case 'n':
        return context.alias;
      case 'p':
        return String(context.port);
      case 'r':
        return context.user;
      default:
        return os.userInfo().username;
    }
  });
}
