import { freePort } from '../test/free-port.ts';
import type { Panel } from './panel-fixture.ts';

/**
 * Writes `server.mjs` in the panel's workspace: a small HTTP server on a free port that prints
 * `ready on http://127.0.0.1:PORT` once it listens and `GET /path` for each request. Returns the port.
 */
export async function writeDevServer(panel: Panel): Promise<number> {
  const port = await freePort();
  await panel.write(
    'server.mjs',
    [
      "import { createServer } from 'node:http';",
      "const server = createServer((req, res) => { console.log('GET ' + req.url); res.end('hello'); });",
      `server.listen(${port}, '127.0.0.1', () => console.log('ready on http://127.0.0.1:${port}'));`,
    ].join('\n'),
  );
  return port;
}
