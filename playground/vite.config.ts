import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { llhttpWasm } from './vite-plugins/llhttp.ts';
import { offline } from './vite-plugins/offline.ts';

// Relative asset URLs: the built site works from any directory of any static host.
export default defineConfig({
  base: './',
  plugins: [svelte(), llhttpWasm(), offline()],
  server: {
    // The wasm package (../wasm/pkg, linked into node_modules) and core/testdata are outside.
    fs: { allow: ['..'] },
  },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 1024,
  },
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
  },
});
