import { readFile } from 'node:fs/promises';
import type { AnyAuthMethod } from 'ssh2';
import type { SshTarget } from './ssh-target.ts';
import { ToolError } from '../tool.ts';
import { loadSsh2 } from './ssh2-module.ts';

// How `ssh_exec` proves who it is: ssh-agent first, then key files; never a password. And what
// it says when a connection cannot be made, in words a person can act on.

/** The agent first, then each identity file that exists and is not locked by a passphrase. */
export async function authMethods(target: SshTarget): Promise<{ methods: AnyAuthMethod[]; notes: string[] }> {
  const methods: AnyAuthMethod[] = [];
  const notes: string[] = [];
  if (target.agentSocket) {
    methods.push({ type: 'agent', username: target.user, agent: target.agentSocket });
    notes.push(`the ssh-agent at ${target.agentSocket}`);
  }
  for (const file of target.identityFiles) {
    const data = await readFile(file).catch(() => null);
    if (!data) continue;
    const { utils } = await loadSsh2();
    const parsed = utils.parseKey(data);
    if (parsed instanceof Error) {
      notes.push(
        `${file} (skipped: ${/passphrase/i.test(parsed.message) ? 'protected by a passphrase; add it to ssh-agent with ssh-add' : parsed.message})`,
      );
      continue;
    }
    methods.push({ type: 'publickey', username: target.user, key: data });
    notes.push(file);
  }
  if (methods.length === 0) {
    const looked = target.identityFiles.join(', ');
    throw new ToolError(
      `No way to authenticate to ${target.label}: no ssh-agent ($SSH_AUTH_SOCK is not set) and no usable key file (looked at ${looked}${notes.length > 0 ? `; ${notes.join('; ')}` : ''}). ` +
        'Start ssh-agent and ssh-add your key, or set IdentityFile for this host in ~/.ssh/config. ssh_exec never uses passwords.',
    );
  }
  return { methods, notes };
}

export function connectError(
  error: Error & { level?: string; code?: string },
  target: SshTarget,
  tried: string[],
): ToolError {
  if (error.level === 'client-authentication') {
    return new ToolError(
      `Authentication to ${target.label} failed: the server accepted none of ${tried.join(', ')}. ` +
        `Add the public key to ~/.ssh/authorized_keys of ${target.user} on the server, load the right key into ssh-agent (ssh-add), ` +
        'or name it with IdentityFile for this host in ~/.ssh/config. ssh_exec never uses passwords.',
    );
  }
  if (error.code === 'ECONNREFUSED')
    return new ToolError(
      `Could not connect to ${target.label}: connection refused. Is sshd running there, on port ${target.port}?`,
    );
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN')
    return new ToolError(`Could not connect to ${target.label}: the host name ${target.host} does not resolve.`);
  return new ToolError(`Could not connect to ${target.label}: ${error.message}`);
}
