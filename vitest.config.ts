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
  },
});
