import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

// The dashboard is served by `baton serve` from dist/renderer (and loaded by Electron from the same files).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
  },
  esbuild: { jsx: 'automatic' },
});
