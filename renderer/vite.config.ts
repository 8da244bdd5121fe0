import { defineConfig, type Plugin } from 'vite';
import { fileURLToPath } from 'node:url';

/**
 * `--mode bench` builds the bench page: index.html loads bench-main.ts (the dashboard plus its measurement hooks)
 * instead of main.tsx, into dist/renderer-bench, which test/bench/renderer-page.ts serves. The product build never
 * sees the hooks (docs/architecture.md §11).
 */
function benchEntry(): Plugin {
  return {
    name: 'baton-bench-entry',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        const entry = '<script type="module" src="./main.tsx"></script>';
        if (!html.includes(entry))
          throw new Error(
            `renderer/index.html no longer loads ${entry}: update the bench entry in renderer/vite.config.ts`,
          );
        return html.replace(entry, '<script type="module" src="./bench-main.ts"></script>');
      },
    },
  };
}

// The dashboard is served by `baton serve` from dist/renderer (and loaded by Electron from the same files).
export default defineConfig(({ mode }) => {
  const bench = mode === 'bench';
  return {
    root: fileURLToPath(new URL('.', import.meta.url)),
    base: './',
    plugins: bench ? [benchEntry()] : [],
    build: {
      outDir: fileURLToPath(new URL(bench ? '../dist/renderer-bench' : '../dist/renderer', import.meta.url)),
      emptyOutDir: true,
      sourcemap: true,
      chunkSizeWarningLimit: 2000,
    },
    esbuild: { jsx: 'automatic' },
  };
});
