import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'main/**/*.test.ts',
      'preload/**/*.test.ts',
      'renderer/**/*.test.{ts,tsx}',
      'bench/**/*.test.ts',
      'build/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 20_000,
    // expect.poll waits for what a real process, socket or disk does; a loaded machine needs longer than 1 s.
    expect: { poll: { timeout: 15_000 } },
    // One test file per core. Vitest's own default leaves a core to itself, which on two cores runs
    // one file at a time; most files here wait on child processes, sockets and fsync, not the CPU.
    maxWorkers: os.availableParallelism(),
    // The Node children tests start (the CLI, MCP fixture servers, turns to be killed) keep what they
    // compiled, the stripped TypeScript included, as `aether` does for a person: half the CPU of a start.
    env: { NODE_COMPILE_CACHE: process.env['NODE_COMPILE_CACHE'] ?? path.join(os.tmpdir(), 'node-compile-cache') },
  },
});
