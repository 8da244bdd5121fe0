#!/usr/bin/env node
// The published entry point: the command line that `npm run build` bundled into one script (scripts/build-cli.mjs),
// compiled with the V8 code cache made beside it, so a start neither resolves ~160 modules nor compiles them again
// (docs/performance.md "CLI start"). `baton serve` loads the core's bundle the same way (scripts/build-core.mjs;
// docs/performance.md "Cold start: the core's share"). A cache made by another V8 is rejected and the script compiles
// as usual.
// CommonJS (bin/package.json says so), so that Node starts it without initialising its ES module loader.
'use strict';
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { fileURLToPath, pathToFileURL } = require('node:url');
const { Script } = require('node:vm');

const file = join(__dirname, '..', 'dist', 'electron', 'cli', 'baton.cjs');
const bundleUrl = pathToFileURL(file);

/**
 * Compiles the CommonJS script `path` with its code cache (`<path>.cache`, when there is one) and runs it with
 * CommonJS's own arguments plus `extra` (name → value); returns its exports. With `writeCache`, the cache is made at
 * this process's exit, once everything the run needed is compiled (written whole, then renamed, so a concurrent start
 * never reads half of one). The wrapper is part of the cached source: it changes only with a new cache.
 */
function runCached(path, extra, writeCache) {
  const source = readFileSync(path, 'utf8');
  const cacheFile = `${path}.cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // No cache (a build without one): compiled as usual.
  }
  const names = ['exports', 'require', 'module', '__filename', '__dirname', ...Object.keys(extra)];
  const script = new Script(`(function (${names.join(', ')}) {${source}\n})`, { filename: path, cachedData });
  if (writeCache)
    process.once('exit', () => {
      writeFileSync(`${cacheFile}.${process.pid}`, script.createCachedData());
      renameSync(`${cacheFile}.${process.pid}`, cacheFile);
    });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(path), module, path, dirname(path), ...Object.values(extra));
  return module.exports;
}

try {
  runCached(
    file,
    {
      __batonBundleUrl: bundleUrl.href,
      // A script compiled this way has no `import()` of its own (Node 20 gives one only behind
      // --experimental-vm-modules or with an experimental-warning constant): the bundle's import() of a core module
      // comes here. The core's own bundle is a script too, compiled with its cache.
      __batonImport: (spec) => {
        const url = new URL(spec, bundleUrl);
        if (!url.pathname.endsWith('.cjs')) return import(url.href);
        return Promise.resolve().then(() =>
          runCached(fileURLToPath(url), {}, process.env.BATON_WRITE_CORE_CACHE === '1'),
        );
      },
    },
    process.env.BATON_WRITE_CLI_CACHE === '1',
  );
} catch (err) {
  if (err && err.code === 'ENOENT' && err.path === file) {
    process.stderr.write('baton: not built yet; run `npm run build` in the Baton checkout first\n');
    process.exit(1);
  }
  throw err;
}
