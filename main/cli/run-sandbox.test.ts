import { access, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aether } from '../../test/aether-cli.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';

// `aether run --permission-mode sandbox` with the sandbox's rules from settings.json, as the panel
// takes them, and `--sandbox-rules` over them: the real bwrap, the fixture model over HTTP, and a
// folder outside the workspace (under /var/tmp: the sandbox's /tmp is a private one).

let root: string;
let home: string;
let workspace: string;
let outside: string;
let server: FixtureServer | undefined;

beforeEach(async () => {
  root = await realpath(await mkdtemp('/var/tmp/aether-run-sandbox-'));
  [home, workspace, outside] = ['home', 'ws', 'outside'].map((name) => path.join(root, name)) as [
    string,
    string,
    string,
  ];
  for (const folder of [home, workspace, outside, path.join(root, 'sessions')]) await mkdir(folder);
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(root, { recursive: true, force: true });
});

async function runWriting(flags: string[]) {
  server = await startFixtureServer({
    script: {
      steps: [
        { tool_calls: [{ id: 'w', name: 'exec', args: { command: `echo made > ${outside}/made.txt` } }] },
        { text: ['Done.'] },
      ],
    },
  });
  const model = `compat:${server.baseURL}#fixture`;
  const args = ['run', '--workspace', workspace, '--sessions', path.join(root, 'sessions'), '--model', model];
  return aether([...args, '--permission-mode', 'sandbox', ...flags, 'Write it'], { AETHERCODEX_HOME: home });
}

const settings = (value: unknown) => writeFile(path.join(home, 'settings.json'), JSON.stringify(value));

describe('aether run in the sandbox mode', () => {
  it("takes the sandbox's rules from settings.json, as the panel does, and says so", async () => {
    await settings({ sandbox: { writable: [outside], hidden: [], network: [], tmp_mib: 64, max_processes: 256 } });
    const ran = await runWriting([]);
    expect(ran.code).toBe(0);
    expect(await readFile(path.join(outside, 'made.txt'), 'utf8')).toBe('made\n');
    expect(ran.stderr).toContain(`Sandbox (the sandbox rules of ${path.join(home, 'settings.json')}): writes`);
    expect(ran.stderr).toContain(`/tmp (64 MiB), ${outside}; no network; at most 256 processes`);
  });

  it('lets --sandbox-rules replace the fields it names, and the write outside is refused', async () => {
    await settings({ sandbox: { writable: [outside], hidden: [], network: [], tmp_mib: 64, max_processes: 256 } });
    const ran = await runWriting(['--sandbox-rules', '{"writable": []}', '--sandbox-allow', 'registry.npmjs.org']);
    expect(ran.code).toBe(0);
    await expect(access(path.join(outside, 'made.txt'))).rejects.toThrow();
    expect(ran.stdout).toContain('outside what the sandbox lets it write');
    expect(ran.stderr).toContain('then --sandbox-rules (writable), then --sandbox-allow');
    expect(ran.stderr).toContain('network to registry.npmjs.org only; at most 256 processes');
  });

  it('runs with the default rules where settings.json has none, and names what it could not use', async () => {
    await settings({ sandbox: { writable: 'everything' } });
    const ran = await runWriting([]);
    expect(ran.code).toBe(0);
    await expect(access(path.join(outside, 'made.txt'))).rejects.toThrow();
    expect(ran.stderr).toContain('sandbox: {"writable":"everything"} is not used');
    expect(ran.stderr).toContain('Sandbox (the default rules): writes');
    expect(ran.stderr).toContain('no network; at most 1024 processes');
  });

  it('starts nothing when settings.json is not JSON, saying where', async () => {
    await writeFile(path.join(home, 'settings.json'), '{"sandbox": {');
    const ran = await runWriting([]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('is not valid JSON at line 1');
    await expect(access(path.join(outside, 'made.txt'))).rejects.toThrow();
  });

  it('exits 2 on --sandbox-rules that are not JSON, name an unknown field, or come without the sandbox mode', async () => {
    const notJson = await aether(['run', '--permission-mode', 'sandbox', '--sandbox-rules', '{network}', 'x'], {
      AETHERCODEX_HOME: home,
    });
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('--sandbox-rules takes a JSON object');
    const unknown = await aether(['run', '--permission-mode', 'sandbox', '--sandbox-rules', '{"netwrk": []}', 'x'], {
      AETHERCODEX_HOME: home,
    });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('netwrk');
    const noMode = await aether(['run', '--sandbox-rules', '{"network": []}', 'x'], { AETHERCODEX_HOME: home });
    expect(noMode.code).toBe(2);
    expect(noMode.stderr).toContain('--sandbox-rules applies to the sandbox: add --permission-mode sandbox.');
  });

  it('prints its usage for --help, and exits 0', async () => {
    const help = await aether(['run', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: aether run "<prompt>"');
    // Each option on a line of its own.
    expect(help.stdout).toMatch(/^ {2}--sandbox-rules JSON {2,}\S/m);
    expect(help.stdout).toMatch(/^ {2}--keep-processes {2,}\S/m);
  });
});
