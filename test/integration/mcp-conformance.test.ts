import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The official MCP conformance suite (@modelcontextprotocol/conformance) against the app's own MCP
// client: for each client scenario the suite starts its test server and runs `aether mcp probe`
// with the server's URL appended; the suite's checks decide. Known failures would be listed,
// each explained, in test/mcp-conformance-baseline.yml (empty: none).

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SUITE = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');
const BASELINE = path.join(repo, 'test', 'mcp-conformance-baseline.yml');

/** The command the suite runs: the probe, on this Node, with what the scenario needs of it. */
function probe(...flags: string[]): string {
  return [process.execPath, path.join(repo, 'bin', 'aether.js'), 'mcp', 'probe', ...flags]
    .map((part) => `'${part.replace(/'/g, `'\\''`)}'`)
    .join(' ');
}

const SCENARIOS: Record<string, string> = {
  initialize: probe(),
  tools_call: probe('--call', 'add_numbers', '--args', '{"a":2,"b":3}'),
  'elicitation-sep1034-client-defaults': probe('--call', 'test_client_elicitation_defaults', '--elicit', 'defaults'),
  'sse-retry': probe('--call', 'test_reconnection'),
};

let results: string;

beforeEach(async () => {
  results = await mkdtemp(path.join(os.tmpdir(), 'aether-conformance-'));
});

afterEach(async () => {
  await rm(results, { recursive: true, force: true });
});

function runSuite(scenario: string, command: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    [SUITE, 'client', '--command', command, '--scenario', scenario, '--expected-failures', BASELINE],
    {
      cwd: results,
      env: { ...process.env, AETHERCODEX_HOME: path.join(results, 'home') },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

describe('the MCP conformance suite against aether mcp probe', { timeout: 60_000 }, () => {
  for (const [scenario, command] of Object.entries(SCENARIOS)) {
    it(`passes ${scenario}`, async () => {
      const run = await runSuite(scenario, command);
      expect(run.output).toContain('OVERALL: PASSED');
      expect(run.code, run.output).toBe(0);
    });
  }

  it('fails a client that skips what the scenario asks (the suite can fail)', async () => {
    const run = await runSuite('tools_call', probe());
    expect(run.output).not.toContain('OVERALL: PASSED');
    expect(run.code).not.toBe(0);
  });
});
