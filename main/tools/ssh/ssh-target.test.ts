import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseHostSpec, resolveTarget, type SshPaths } from './ssh-target.ts';

let dir: string;
let paths: SshPaths;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'aether-ssh-target-'));
  paths = {
    home: dir,
    config: path.join(dir, 'config'),
    knownHosts: [path.join(dir, 'known_hosts')],
    appKnownHosts: path.join(dir, 'app_known_hosts'),
    agentSocket: '/run/agent.sock',
  };
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('host specs', () => {
  it('reads user, host and port', () => {
    expect(parseHostSpec('deploy@example.com:2222')).toEqual({ user: 'deploy', host: 'example.com', port: 2222 });
    expect(parseHostSpec('example.com')).toEqual({ host: 'example.com' });
    expect(parseHostSpec('ssh://root@[::1]:2200')).toEqual({ user: 'root', host: '::1', port: 2200 });
    expect(parseHostSpec('fe80::1')).toEqual({ host: 'fe80::1' });
  });

  it('refuses what is not a host, saying what to write', () => {
    expect(() => parseHostSpec('example.com:ssh')).toThrow(/user@host:port/);
    expect(() => parseHostSpec('-oProxyCommand=x')).toThrow(/not a host/);
    expect(() => parseHostSpec('a b')).toThrow(/not a host/);
    expect(() => parseHostSpec('h:70000')).toThrow(/out of range/);
  });
});

describe('resolving a target', () => {
  it('takes HostName, User, Port and IdentityFile from the alias in the ssh config', async () => {
    await writeFile(
      paths.config,
      [
        'Host build',
        '  hostname 10.0.0.5',
        '  User ci',
        '  Port 2202',
        '  IdentityFile ~/.ssh/build_%r',
        '  IdentityFile %d/second',
        '',
        'Host *',
        '  User fallback',
        '',
      ].join('\n'),
    );
    const target = await resolveTarget('build', paths);
    expect(target).toMatchObject({
      host: '10.0.0.5',
      port: 2202,
      user: 'ci',
      label: 'ci@10.0.0.5:2202',
      agentSocket: '/run/agent.sock',
    });
    expect(target.identityFiles).toEqual([path.join(dir, '.ssh', 'build_ci'), path.join(dir, 'second')]);
    expect(target.knownHostsFiles).toEqual([path.join(dir, 'known_hosts'), path.join(dir, 'app_known_hosts')]);
  });

  it('lets user@host:port override the config and falls back to the default identities', async () => {
    await writeFile(paths.config, 'Host *\n  User fallback\n  Port 2000\n');
    const target = await resolveTarget('me@plain.example:2300', paths);
    expect(target).toMatchObject({ host: 'plain.example', port: 2300, user: 'me' });
    expect(target.identityFiles).toEqual(
      ['id_ed25519', 'id_ecdsa', 'id_rsa'].map((name) => path.join(dir, '.ssh', name)),
    );
  });

  it('honours IdentityAgent none and UserKnownHostsFile', async () => {
    await writeFile(paths.config, `Host box\n  IdentityAgent none\n  UserKnownHostsFile ${dir}/kh1 ~/kh2\n`);
    const target = await resolveTarget('box', paths);
    expect(target.agentSocket).toBeUndefined();
    expect(target.knownHostsFiles).toEqual([path.join(dir, 'kh1'), path.join(dir, 'kh2'), paths.appKnownHosts]);
  });

  it('refuses hosts that need a proxy instead of connecting around it', async () => {
    await writeFile(paths.config, 'Host inner\n  ProxyJump bastion\n');
    await expect(resolveTarget('inner', paths)).rejects.toThrow(/ProxyJump/);
  });

  it('works without any ssh config', async () => {
    const target = await resolveTarget('example.org', paths);
    expect(target).toMatchObject({ host: 'example.org', port: 22, user: os.userInfo().username });
  });
});
