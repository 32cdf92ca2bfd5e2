import type { SandboxPlan } from './sandbox-plan.ts';

// The same plan as a Seatbelt profile for macOS's sandbox-exec: reads allowed but for the hidden
// secrets, writes only to the workspace, the temp folders and the writable folders (the
// workspace's hooks and app folder excepted), no network but the proxy's port on the loopback.
// macOS has no process namespace: the call's process group and marker end what it started.

export function seatbeltProfile(plan: SandboxPlan, tmpFolders: readonly string[], proxyPort?: number): string {
  const quote = (entry: string): string => JSON.stringify(entry);
  const writable = [...(plan.readOnlyWorkspace ? [] : [plan.workspace]), ...tmpFolders, ...plan.writable].map(
    (entry) => `(subpath ${quote(entry)})`,
  );
  const lines = [
    '(version 1)',
    '(allow default)',
    '(deny network*)',
    '(allow network* (remote unix-socket))',
    ...(proxyPort ? [`(allow network-outbound (remote tcp ${quote(`localhost:${proxyPort}`)}))`] : []),
    '(deny file-write*)',
    `(allow file-write* ${writable.join(' ')} (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))`,
    ...plan.readOnly.map((entry) => `(deny file-write* (subpath ${quote(entry)}))`),
    ...plan.hidden.map(
      (secret) => `(deny file-read* file-write* (${secret.directory ? 'subpath' : 'literal'} ${quote(secret.path)}))`,
    ),
  ];
  return lines.join('\n');
}
