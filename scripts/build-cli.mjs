// Bundles the `baton` command line (docs/performance.md "CLI start"), from the compiled dist/ that `tsc` has just
// written, into one file for each of its two entries:
// - dist/electron/cli/baton.cjs, which bin/baton.js compiles with V8's code cache (baton.cjs.cache, made here): every
//   command's parser, usage and client in one script instead of ~160 modules. What only some commands need (the
//   client, the contract's schemas, the WebSocket) is inlined but evaluated on first use. The core, the web server
//   and the remote connector stay outside it, loaded with `import()` only by the commands that run them (`serve`,
//   `connect`): `serve` loads the core's own bundle (scripts/build-core.mjs, made here first), the others the
//   compiled modules beside it, which keep their own paths (`import.meta.url`) and which the Electron main imports.
// - dist/electron/cli/hook.cjs, which a vendor's hook runs on every turn: tiny, and CommonJS, so Node starts it
//   without its ES module loader.
// BATON_BUILD_READABLE=1 leaves the bundles unminified (for reading a CPU profile).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildCore, CORE_ENTRIES } from './build-core.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cliDir = join(root, 'dist', 'electron', 'cli');
const sharedDir = join(root, 'dist', 'shared');
const bundleFile = join(cliDir, 'baton.cjs');

/** The command line's own files and the contract are inlined; anything else it loads with `import()` is the core. */
const inlined = (file) => file.startsWith(cliDir + sep) || file.startsWith(sharedDir + sep);

/** The core modules the bundle imports, as paths relative to it. */
const outside = new Set();

const coreBundle = await buildCore(root);
/** `baton serve`'s entries, compiled, and their bundle: the command loads the bundle instead (bin/baton.js). */
const bundled = new Map(CORE_ENTRIES.map((e) => [join(root, 'dist', 'electron', `${e}.js`), coreBundle]));

/**
 * `import()` of a core module stays an import of the compiled file itself, its path now relative to the bundle, so
 * the bundle never holds a second copy of the core. A script compiled with a code cache has no `import()` of its own
 * (Node 20 offers one only behind an experimental flag): bin/baton.js lends it one, `__batonImport`, which resolves
 * the path against the bundle's URL.
 */
const coreStaysOutside = {
  name: 'core-stays-outside',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const compiled = resolve(args.resolveDir, args.path);
      if (inlined(compiled)) return undefined;
      const file = bundled.get(compiled) ?? compiled;
      const path = relative(cliDir, file).split(sep).join('/');
      const spec = path.startsWith('.') ? path : `./${path}`;
      outside.add(spec);
      return { path: spec, external: true };
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

/**
 * `ws` requires `https`, `tls` and `zlib` as it loads, for what a `wss://` address and a compressed connection need.
 * The command line talks to its core over a Unix socket or `http://`, and the core's server never agrees to
 * compression (ws's default); Node takes about 4 ms to load those three (docs/performance.md "CLI start: the contract
 * built as used"). In the bundle, `ws` gets each as a stand-in that loads the module at its first use, so a `wss://`
 * address still works.
 */
const wsBuiltinsOnUse = {
  name: 'ws-builtins-on-use',
  setup(b) {
    b.onResolve({ filter: /^(https|tls|zlib)$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]ws[\\/]/.test(args.importer)) return undefined;
      return { path: args.path, namespace: 'builtin-on-use' };
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin-on-use' }, (args) => ({
      contents:
        `let loaded;\n` +
        `module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require('node:${args.path}'))[key] });\n`,
      loader: 'js',
    }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: !process.env.BATON_BUILD_READABLE,
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: root,
};

const cli = await build({
  ...common,
  entryPoints: [join(cliDir, 'main.js')],
  outfile: bundleFile,
  write: false,
  // Native and optional modules load from node_modules as they are (ws tries bufferutil and utf-8-validate).
  external: ['node-pty', 'bufferutil', 'utf-8-validate'],
  plugins: [coreStaysOutside, zodShakes, wsBuiltinsOnUse],
  // The bundle's own URL, which bin/baton.js passes in (packageRoot() walks up from it to package.json).
  define: { 'import.meta.url': '__batonBundleUrl' },
});
// V8 matches a cache to its script by length, not content: the old cache goes before the new bundle is written.
rmSync(`${bundleFile}.cache`, { force: true });
let text = cli.outputFiles[0].text;
for (const spec of outside) {
  const call = `import(${JSON.stringify(spec)})`;
  if (!text.includes(call)) throw new Error(`build-cli: the bundle has no ${call} to hand to bin/baton.js`);
  text = text.replaceAll(call, `__batonImport(${JSON.stringify(spec)})`);
}
if (/\bimport\(/.test(text)) throw new Error('build-cli: the bundle has an import() that bin/baton.js cannot serve');
writeFileSync(bundleFile, text);

await build({ ...common, entryPoints: [join(cliDir, 'hook-main.js')], outfile: join(cliDir, 'hook.cjs') });

await makeCaches();

/**
 * The two code caches, V8's compiled code for each bundle:
 * - the core's, taken after a run of `baton serve` on a store of one run until it serves and stops: what a cold start
 *   compiles (the core's modules, the store's open, the web server) is in it;
 * - the command line's, taken after a `baton ls --json` answered by that core: the client, the contract's schemas it
 *   builds, the WebSocket's handshake and the printing are in it, not only the parsing of the command.
 * V8 matches a cache to its script by length, not content: the old caches went with the old bundles. A Node whose V8
 * differs (Electron's, a remote host's) rejects them and compiles as if they were not there.
 */
async function makeCaches() {
  const dir = mkdtempSync(join(tmpdir(), 'baton-core-cache-'));
  try {
    const dataDir = join(dir, 'data');
    const runId = 'run_0000000000000001';
    mkdirSync(join(dataDir, 'runs', runId), { recursive: true, mode: 0o700 });
    const at = '2025-01-01T00:00:00.000Z';
    const agent = { id: 'agt_0000000000000001', label: 'a1', vendor: 'shell', cwd: dir, args: [], command: null };
    const manifest = {
      v: 1,
      id: runId,
      name: 'cache',
      createdAt: at,
      updatedAt: at,
      agents: [{ ...agent, sessionIds: [], status: 'stopped', exitCode: null, warning: null, startedAt: at }],
      lastSnapshot: null,
    };
    writeFileSync(join(dataDir, 'runs', runId, 'run.json'), JSON.stringify(manifest), { mode: 0o600 });
    // As a user's Node starts them: no preloads or flags (the caches must match a plain `node`), no other server.
    const cleanEnv = (extra) => {
      const env = { ...process.env, HOME: dir, ...extra };
      for (const name of ['NODE_OPTIONS', 'BATON_URL', 'BATON_TOKEN', 'BATON_PORT']) delete env[name];
      return env;
    };
    const core = spawn(
      process.execPath,
      [join(root, 'bin', 'baton.js'), 'serve', '--port', '0', '--data-dir', dataDir],
      {
        env: cleanEnv({ BATON_WRITE_CORE_CACHE: '1' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    const collect = (d) => (output += d.toString());
    core.stdout.on('data', collect);
    core.stderr.on('data', collect);
    const exited = new Promise((resolve) => core.once('exit', resolve));
    try {
      await serving(core, () => output);
      const ls = spawnSync(process.execPath, [join(root, 'bin', 'baton.js'), 'ls', '--json', '--data-dir', dataDir], {
        env: cleanEnv({ BATON_WRITE_CLI_CACHE: '1' }),
        encoding: 'utf8',
      });
      if (ls.status !== 0 || !ls.stdout.includes(runId))
        throw new Error(`build-cli: the command line's cache run failed: ${ls.stderr}`);
    } finally {
      // Stopped whatever happened: a core left running would hold the build open.
      core.kill('SIGTERM');
    }
    const code = await exited;
    if (code !== 0) throw new Error(`build-cli: the core cache run stopped with ${code}:\n${output}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Resolves once `core` says it serves (`output()`: what it printed so far, collected by listeners added before this
 * one); rejects if it ends first or says nothing of the kind within a minute.
 */
function serving(core, output) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`build-cli: the core cache run did not serve:\n${output()}`)),
      60_000,
    );
    const seen = () => {
      if (!output().includes('Open http')) return;
      clearTimeout(timer);
      resolve();
    };
    core.stdout.on('data', seen);
    core.stderr.on('data', seen);
    core.once('exit', () => reject(new Error(`build-cli: the core cache run ended:\n${output()}`)));
  });
}
