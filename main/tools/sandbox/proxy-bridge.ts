// Inside the sandbox, the command's way to the proxy: a program run by the app's own Node that
// listens on the sandbox's loopback, carries each connection to the proxy's Unix socket, starts
// the command and ends as it ends (its exit code, or its signal). Plain JavaScript, run with -e.

/** The port the command's HTTP_PROXY names: the sandbox has a loopback of its own. */
export const BRIDGE_PORT = 3128;

export const BRIDGE_SOURCE = `
const net = require('node:net');
const { spawn } = require('node:child_process');
const [socketPath, port, ...argv] = process.argv.slice(1);
const server = net.createServer((inbound) => {
  const outbound = net.connect(socketPath);
  inbound.pipe(outbound); outbound.pipe(inbound);
  const end = () => { inbound.destroy(); outbound.destroy(); };
  inbound.on('error', end); outbound.on('error', end);
});
server.listen(Number(port), '127.0.0.1', () => {
  const env = { ...process.env }; delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(argv[0], argv.slice(1), { stdio: 'inherit', env });
  for (const name of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(name, () => child.kill(name));
  child.on('error', (error) => { process.stderr.write(String(error.message) + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => {
    server.close();
    if (signal) { process.removeAllListeners(signal); process.kill(process.pid, signal); }
    process.exit(code ?? 1);
  });
});
`;

/** The argv that runs `argv` behind the bridge. */
export function bridgedArgv(node: string, socketPath: string, argv: readonly string[]): string[] {
  return [node, '-e', BRIDGE_SOURCE, socketPath, String(BRIDGE_PORT), ...argv];
}
