import { defineConfig, type Plugin } from 'vite';
import type { Rollup } from 'vite';
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

/**
 * main.tsx loads the dashboard (dashboard.tsx) as a chunk of its own, after its socket is opening; a modulepreload
 * link for that chunk and the chunks it imports starts their download with the page's, not after the entry has run.
 */
function preloadDashboard(): Plugin {
  return {
    name: 'baton-preload-dashboard',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!ctx.bundle) return [];
        const chunks = Object.values(ctx.bundle).filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
        const dashboard = chunks.find((c) => c.isDynamicEntry && c.facadeModuleId?.endsWith('/renderer/dashboard.tsx'));
        if (!dashboard)
          throw new Error('no dashboard chunk in the build: update preloadDashboard in renderer/vite.config.ts');
        const files = new Set<string>();
        const styles = new Set<string>();
        const add = (chunk: Rollup.OutputChunk | undefined) => {
          if (!chunk || chunk.isEntry || files.has(chunk.fileName)) return;
          files.add(chunk.fileName);
          // Its style sheets too, as links of the page: Vite's loader then finds them there and does not wait for them.
          for (const css of chunk.viteMetadata?.importedCss ?? []) styles.add(css);
          for (const next of chunk.imports) add(chunks.find((c) => c.fileName === next));
        };
        add(dashboard);
        return [
          ...[...styles].map((file) => ({
            tag: 'link',
            attrs: { rel: 'stylesheet', crossorigin: true, href: `./${file}` },
            injectTo: 'head' as const,
          })),
          ...[...files].map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `./${file}` },
            injectTo: 'head' as const,
          })),
        ];
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
    plugins: bench ? [benchEntry(), preloadDashboard()] : [preloadDashboard()],
    build: {
      outDir: fileURLToPath(new URL(bench ? '../dist/renderer-bench' : '../dist/renderer', import.meta.url)),
      emptyOutDir: true,
      sourcemap: true,
      chunkSizeWarningLimit: 2000,
    },
    esbuild: { jsx: 'automatic' },
  };
});
