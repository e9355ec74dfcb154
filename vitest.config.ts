import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Integration tests start servers and read a 20 MB export: two workers match the 2-core machines.
    maxWorkers: 2,
  },
});
