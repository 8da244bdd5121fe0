// Bundles the `baton` command line into one file each for its two entries (docs/performance.md "CLI start"), from
// the compiled dist/ that `tsc` has just written:
// - dist/electron/cli/baton.mjs, which bin/baton.js loads: every command's parser, usage and client in one module, so
//   a start reads one file instead of ~160. What only some commands need (the client, the contract's schemas) is
//   inlined but evaluated on first use; the core, the web server and the remote connector stay the compiled modules
//   beside it, loaded by `import()` only by the commands that run them (`serve`, `connect`), so they keep their own
//   paths (`import.meta.url`) and the Electron main imports the very same files.
// - dist/electron/cli/hook.cjs, which a vendor's hook runs on every turn: CommonJS, so Node starts it without its
//   ES module loader.
import { dirname, join, relative, resolve, sep } from 'node:path';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cliDir = join(root, 'dist', 'electron', 'cli');
const distDir = join(root, 'dist');

/** Files the bundle may inline: the command line's own and the contract. Anything else it loads is the core. */
const inlined = (file) =>
  file.startsWith(cliDir + sep) ||
  file.startsWith(join(distDir, 'shared') + sep) ||
  file.includes(`${sep}node_modules${sep}`);

/**
 * `import()` of a core module (the server, the remote connector) stays an `import()`, of the compiled file itself,
 * its path now relative to the bundle. The bundle never holds a second copy of the core.
 */
const coreStaysOutside = {
  name: 'core-stays-outside',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const file = resolve(args.resolveDir, args.path);
      if (inlined(file)) return undefined;
      const path = relative(cliDir, file).split(sep).join('/');
      return { path: path.startsWith('.') ? path : `./${path}`, external: true };
    });
  },
};

/**
 * `import { z } from 'zod'` names zod's whole namespace as one value, which no bundler can shake: every locale and
 * the JSON-schema tools would load with it. Importing the same namespace as `* as z` lets the bundle keep only the
 * schema builders the code calls. The compiled files are rewritten in memory, never on disk.
 */
const zodShakes = {
  name: 'zod-shakes',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      return { contents: text.replaceAll("import { z } from 'zod';", "import * as z from 'zod';"), loader: 'js' };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: !process.env.BATON_BUILD_READABLE,
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: root,
};

await build({
  ...common,
  entryPoints: [join(cliDir, 'main.js')],
  outfile: join(cliDir, 'baton.mjs'),
  format: 'esm',
  sourcemap: 'linked',
  // Native and optional modules load from node_modules as they are (ws tries bufferutil and utf-8-validate).
  external: ['node-pty', 'bufferutil', 'utf-8-validate'],
  plugins: [coreStaysOutside, zodShakes],
  // ws is CommonJS: its require() calls need a require in an ES module.
  banner: {
    js: "import { createRequire as __batonRequire } from 'node:module';const require = __batonRequire(import.meta.url);",
  },
});

await build({
  ...common,
  entryPoints: [join(cliDir, 'hook-main.js')],
  outfile: join(cliDir, 'hook.cjs'),
  format: 'cjs',
});
