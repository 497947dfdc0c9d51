import { defineConfig } from 'vitest/config';

// Real traffic captured with tcpdump on lo (root): `make playground-traffic-test`.
export default defineConfig({
  test: {
    include: ['tests/traffic/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 240_000,
  },
});
