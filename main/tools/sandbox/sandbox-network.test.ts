import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHttpsServer, TEST_CA } from '../../../test/https-server.ts';
import { startRegistryStandIn, STAND_IN_PACKAGE, type RegistryStandIn } from '../../../test/registry-stand-in.ts';
import { makeSandboxScene, removeSandboxScene, runSandboxed, type SandboxScene } from '../../../test/sandbox-setup.ts';

// npm install in the sandbox against a registry on the loopback: through the proxy when the
// registry's host is allowed, refused with its name when it is not, and no network at all when
// nothing is allowed.

let scene: SandboxScene;
let registry: RegistryStandIn;
beforeEach(async () => {
  scene = await makeSandboxScene();
  registry = await startRegistryStandIn();
  await writeFile(
    path.join(scene.workspace, 'package.json'),
    JSON.stringify({ name: 'app', version: '1.0.0', private: true }),
  );
});
afterEach(async () => {
  await registry.close();
  await removeSandboxScene(scene);
});

const install = (): string =>
  `npm install ${STAND_IN_PACKAGE} --registry ${registry.url} --cache /tmp/npm-cache --logs-dir /tmp/npm-logs ` +
  '--no-audit --no-fund --fetch-retries 0 --fetch-timeout 20000 && ' +
  `node -e "console.log(require('${STAND_IN_PACKAGE}')())"`;

describe('the network allow-list', () => {
  it('lets npm install reach an allowed registry through the proxy', async () => {
    const run = await runSandboxed(scene, install(), { network: [registry.host] });
    expect(run.output).toContain('hello from the registry');
    expect(run.exitCode).toBe(0);
    expect(registry.requests).toContain(`/${STAND_IN_PACKAGE}`);
    const installed = JSON.parse(
      readFileSync(path.join(scene.workspace, 'node_modules', STAND_IN_PACKAGE, 'package.json'), 'utf8'),
    ) as { version: string };
    expect(installed.version).toBe('1.0.0');
  });

  it('refuses a registry not on the list, and names it', async () => {
    const run = await runSandboxed(scene, install(), { network: ['registry.npmjs.org'] });
    expect(run.exitCode).not.toBe(0);
    expect(registry.requests).toEqual([]);
    expect(run.refusal).toContain(`it tried to reach ${registry.host}, not on the sandbox's network allow-list`);
  });

  it('tunnels HTTPS to an allowed host (CONNECT), end to end encrypted', async () => {
    const https = await startHttpsServer();
    https.route('/hello', (_request, response) => response.end('over tls'));
    try {
      const ca = path.join(scene.outside, 'ca.crt');
      await writeFile(ca, TEST_CA);
      const run = await runSandboxed(scene, `curl -sS --cacert ${ca} https://localhost:${https.port}/hello`, {
        network: [`localhost:${https.port}`],
      });
      expect(run.output).toBe('over tls');
      expect(https.requests).toEqual(['/hello']);
    } finally {
      await https.close();
    }
  });

  it('fails clearly with no network at all', async () => {
    const run = await runSandboxed(scene, install());
    expect(run.exitCode).not.toBe(0);
    expect(registry.requests).toEqual([]);
    expect(run.refusal).toContain('it needed the network, and the sandbox has none');
  });
});
