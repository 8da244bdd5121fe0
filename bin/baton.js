#!/usr/bin/env node
// The published entry point: the compiled command line (run `npm run build` first in a checkout).
import('../dist/electron/cli/main.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND') {
    process.stderr.write('baton: not built yet; run `npm run build` in the Baton checkout first\n');
    process.exit(1);
  }
  throw err;
});
