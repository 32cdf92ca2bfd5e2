import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

// A package registry on the loopback serving one package, as the npm registry serves it (the
// packument, then the tarball it names), for installs that must not reach the Internet.

export interface RegistryStandIn {
  url: string;
  /** host:port, as an allow-list names it. */
  host: string;
  /** Paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

export const STAND_IN_PACKAGE = 'tiny-greeting';

export async function startRegistryStandIn(): Promise<RegistryStandIn> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'registry-'));
  await mkdir(path.join(folder, 'package'));
  await writeFile(
    path.join(folder, 'package', 'package.json'),
    JSON.stringify({ name: STAND_IN_PACKAGE, version: '1.0.0', main: 'index.js' }),
  );
  await writeFile(path.join(folder, 'package', 'index.js'), "module.exports = () => 'hello from the registry';\n");
  execFileSync('tar', ['-czf', path.join(folder, 'package.tgz'), '-C', folder, 'package']);
  const tarball = await readFile(path.join(folder, 'package.tgz'));
  const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
  const shasum = createHash('sha1').update(tarball).digest('hex');
  const requests: string[] = [];
  let base = '';
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', base);
    requests.push(url.pathname);
    if (url.pathname === `/${STAND_IN_PACKAGE}`) {
      const version = {
        name: STAND_IN_PACKAGE,
        version: '1.0.0',
        main: 'index.js',
        dist: { tarball: `${base}/${STAND_IN_PACKAGE}/-/${STAND_IN_PACKAGE}-1.0.0.tgz`, integrity, shasum },
      };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ name: STAND_IN_PACKAGE, 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': version } }),
      );
    } else if (url.pathname.endsWith('.tgz')) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(tarball);
    } else {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":"not found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/`,
    host: `127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(folder, { recursive: true, force: true });
    },
  };
}
