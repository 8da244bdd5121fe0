#!/usr/bin/env node
// The published entry point: the command line bundled into one file by `npm run build` (scripts/build-cli.mjs), so a
// start reads one module instead of the ~160 the compiled sources are (docs/performance.md "CLI start").
import('../dist/electron/cli/baton.mjs').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('baton.mjs')) {
    process.stderr.write('baton: not built yet; run `npm run build` in the Baton checkout first\n');
    process.exit(1);
  }
  throw err;
});
