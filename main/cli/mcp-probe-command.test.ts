import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { aether } from '../../test/aether-cli.ts';

// `aether mcp probe` as a person runs it, on what goes wrong: a server that is not there, and
// arguments that are not what the command takes. Its passes are the conformance suite's.

/** A port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

describe('aether mcp probe', () => {
  it('says the server did not answer, and exits 1', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const ran = await aether(['mcp', 'probe', url]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain(`${url} answered neither streamable HTTP`);
  });

  it('refuses --args that are not a JSON object, or come without --call', async () => {
    const bad = await aether(['mcp', 'probe', 'http://127.0.0.1:1/mcp', '--call', 'x', '--args', '{nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--args is not JSON');
    const alone = await aether(['mcp', 'probe', 'http://127.0.0.1:1/mcp', '--args', '{}']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--args goes with --call TOOL.');
    const noUrl = await aether(['mcp', 'probe']);
    expect(noUrl.stderr).toContain("Give the server's URL");
  });
});
