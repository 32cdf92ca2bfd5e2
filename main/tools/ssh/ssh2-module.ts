import type ssh2 from 'ssh2';

// ssh2 is loaded with the first SSH connection, not with the tools: a session that never reaches a
// host pays neither its start (a fifth of a second) nor its memory (about 15 MiB of resident memory:
// its modules and the WebAssembly of its Poly1305).

type Ssh2 = typeof ssh2;

let loading: Promise<Ssh2> | undefined;

export function loadSsh2(): Promise<Ssh2> {
  // ssh2 is CommonJS: its exports arrive as the module's default.
  loading ??= import('ssh2').then((module) => module.default);
  return loading;
}
