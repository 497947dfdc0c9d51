// Loads the wasm module (the SIMD128 build where the engine has SIMD128), then the app.
import { init } from '@httpspan/wasm';
import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';

const target = document.getElementById('app')!;

try {
  await init();
  target.textContent = '';
  mount(App, { target });
} catch (error) {
  target.textContent = `The parser could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
  throw error;
}

// Offline once loaded: the service worker caches the built site (not in dev, where files change).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register('./sw.js').catch((error) => console.warn('service worker not registered:', error));
}
