// Bundles the core as `baton serve` loads it (docs/performance.md "Cold start"), from the compiled dist/ that `tsc`
// has just written: dist/electron/core-bundle/core.cjs, one CommonJS script holding both ways `baton serve` runs the
// core (web mode's `serve`, the background core's `serveSocket`). Node's ES module loader resolved, read and compiled
// ~400 modules one by one (the core, zod's locales and tools, ws) before the core could open its store: 0.5–1.2 s on a
// loaded 2-core machine, half of `baton serve`'s start. The bundle is one file to read and compile, with zod shaken to
// what the core calls; being a script, not a module, bin/baton.js compiles it with V8's code cache made by the build
// (Node 20 has no code cache for ES modules; docs/performance.md "Cold start: the core's share").
// - Every `import.meta.url` in a bundled module becomes the URL of that module's own compiled file, which stays in
//   dist/: the workers (the mirror, the search index), the hook entry, sql.js's wasm and packageRoot() are found
//   where they always were, and the workers still load their own modules.
// - node-pty (native) and what ws only tries (bufferutil, utf-8-validate) load from node_modules as they are.
// - The Electron main and the tests import the compiled modules themselves; only the CLI's `serve` loads the bundle
//   (scripts/build-cli.mjs points its `import()` here).
// Imported by build-cli.mjs; BATON_BUILD_READABLE=1 leaves it unminified (for reading a CPU profile).
import { readFile } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { build } from 'esbuild';

/** The compiled modules the bundle stands for: the two ways `baton serve` runs the core. */
export const CORE_ENTRIES = ['serve', 'serve-socket'];
/** The bundle's file name in dist/electron/core-bundle/. */
export const CORE_BUNDLE = 'core.cjs';

/** Writes the core bundle `<root>/dist/electron/core-bundle/core.cjs`; returns its path. */
export async function buildCore(root) {
  const distDir = join(root, 'dist');
  const outDir = join(distDir, 'electron', 'core-bundle');
  rmSync(outDir, { recursive: true, force: true });
  const ownUrls = {
    name: 'own-urls-and-zod-shakes',
    setup(b) {
      b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, async (args) => {
        let text = await readFile(args.path, 'utf8');
        // As in the CLI bundle: `import { z }` names zod's whole namespace as one value, which cannot be shaken.
        text = text.replaceAll("import { z } from 'zod';", "import * as z from 'zod';");
        if (args.path.startsWith(distDir + sep) && text.includes('import.meta.url')) {
          const own = relative(outDir, args.path).split(sep).join('/');
          // A script's own URL: its __filename (which Node's loader and bin/baton.js both give it).
          text = text.replaceAll(
            'import.meta.url',
            `new URL(${JSON.stringify(own)}, require('node:url').pathToFileURL(__filename)).href`,
          );
        }
        return { contents: text, loader: 'js' };
      });
    },
  };
  const file = join(outDir, CORE_BUNDLE);
  await build({
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: !process.env.BATON_BUILD_READABLE,
    legalComments: 'none',
    logLevel: 'warning',
    absWorkingDir: root,
    stdin: {
      contents: CORE_ENTRIES.map((e) => `export * from './dist/electron/${e}.js';`).join('\n'),
      resolveDir: root,
      sourcefile: 'core-entry.js',
      loader: 'js',
    },
    outfile: file,
    external: ['node-pty', 'bufferutil', 'utf-8-validate', 'sql.js'],
    plugins: [ownUrls],
  });
  return file;
}
