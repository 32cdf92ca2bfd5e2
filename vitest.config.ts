import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
    projects: [
      {
        extends: true,
        test: {
          name: 'panel',
          include: ['renderer/**/*.test.{ts,tsx}'],
          // The panel's files share a worker's modules and DOM instead of building their own: most of
          // their time was spent importing React and making a DOM, not testing (a quarter of it now).
          // Each file starts from its own store and its own rendered tree, so none sees another's.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'core',
          include: [
            'main/**/*.test.ts',
            'preload/**/*.test.ts',
            'bench/**/*.test.ts',
            'build/**/*.test.ts',
            'test/**/*.test.ts',
          ],
        },
      },
    ],
  },
});
