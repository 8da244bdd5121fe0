// Bundles electron/preload.ts into one CommonJS file, dist/preload/preload.cjs: a sandboxed preload cannot load
// ES modules or local files, only `require('electron')`. Its imports (the bridge contract) are inlined.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  configFile: false,
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/preload', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    target: 'es2022',
    lib: {
      entry: fileURLToPath(new URL('../electron/preload.ts', import.meta.url)),
      formats: ['cjs'],
      fileName: () => 'preload.cjs',
    },
    rollupOptions: { external: ['electron'] },
  },
});
