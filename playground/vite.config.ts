import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { llhttpWasm } from './vite-plugins/llhttp.ts';
import { offline } from './vite-plugins/offline.ts';

// Relative asset URLs: the built site works from any directory of any static host.
export default defineConfig({
  base: './',
  // The compare view's other parsers and their loader chunk are cached when first used, not at install.
  plugins: [svelte(), llhttpWasm(), offline(/\/assets\/(go|httparse|picohttpparser|load)-[\w-]+\.(wasm|js)$/)],
  // The capture view's worker imports the llhttp module too.
  worker: { format: 'es', plugins: () => [llhttpWasm()] },
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
