#!/usr/bin/env node
// The published entry point: the command line that `npm run build` bundled into one script (scripts/build-cli.mjs),
// compiled with the V8 code cache made beside it, so a start neither resolves ~160 modules nor compiles them again
// (docs/performance.md "CLI start"). A cache made by another V8 is rejected and the script compiles as usual.
// CommonJS (bin/package.json says so), so that Node starts it without initialising its ES module loader.
'use strict';
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { Script } = require('node:vm');

const file = join(__dirname, '..', 'dist', 'electron', 'cli', 'baton.cjs');
const cacheFile = `${file}.cache`;
const bundleUrl = pathToFileURL(file);

let source;
try {
  source = readFileSync(file, 'utf8');
} catch (err) {
  if (err && err.code === 'ENOENT') {
    process.stderr.write('baton: not built yet; run `npm run build` in the Baton checkout first\n');
    process.exit(1);
  }
  throw err;
}
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  // No cache (a build without one): compiled as usual.
}

// CommonJS's own wrapper, plus the bundle's URL and an import() of the core modules beside it (a script compiled this
// way has none of its own). The wrapper is part of the cached source: it changes only with a new cache.
const script = new Script(
  `(function (exports, require, module, __filename, __dirname, __batonBundleUrl, __batonImport) {${source}\n})`,
  { filename: file, cachedData },
);
// `npm run build` makes the cache once the client and the contract are compiled (written whole, then renamed, so a
// concurrent start never reads half of one).
if (process.env.BATON_WRITE_CLI_CACHE === '1')
  process.once('exit', () => {
    writeFileSync(`${cacheFile}.${process.pid}`, script.createCachedData());
    renameSync(`${cacheFile}.${process.pid}`, cacheFile);
  });
const bundle = { exports: {} };
script.runInThisContext()(
  bundle.exports,
  createRequire(file),
  bundle,
  file,
  dirname(file),
  bundleUrl.href,
  (spec) => import(new URL(spec, bundleUrl).href),
);
