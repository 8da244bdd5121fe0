#!/usr/bin/env node
// `npm start` (after `npm run build`): the desktop app. Where Electron's binary was never downloaded (installed
// with ELECTRON_SKIP_BINARY_DOWNLOAD=1) or there is no display, it says so in one line and runs web mode. Extra arguments go to the app: `npm start -- baton://resume`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The `electron` package resolves to its binary's path, and throws when the binary was not downloaded. */
function electronBinary() {
  try {
    const path = createRequire(import.meta.url)('electron');
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

/** No desktop here: say why in one line and run web mode (`baton serve`) instead, so `npm start` always runs Baton. */
function webMode(reason) {
  console.log(`${reason}: starting web mode instead (\`baton serve\`; \`npm run serve\` does the same)`);
  const server = spawn(process.execPath, [join(root, 'bin', 'baton.js'), 'serve', ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/**
 * The binary was never downloaded: skipped on purpose (ELECTRON_SKIP_BINARY_DOWNLOAD), or the download failed during
 * install. In the second case try once more now, quietly, and say in one line what happened instead of a stack trace.
 */
function downloadElectron() {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD)
    return 'No Electron binary here (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1)';
  let installer;
  try {
    installer = createRequire(import.meta.url).resolve('electron/install.js');
  } catch {
    return 'The electron package is not installed (run `npm ci`)';
  }
  console.log("Electron's binary is missing: downloading it once (set ELECTRON_SKIP_BINARY_DOWNLOAD=1 to skip)…");
  const result = spawnSync(process.execPath, [installer], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 });
  if (result.status === 0 && electronBinary()) return null;
  const why =
    String(result.stderr ?? '')
      .split('\n')
      .find((l) => /error|ENOTFOUND|ECONN|timed? ?out/i.test(l))
      ?.trim() ?? 'no network?';
  return `Electron's binary could not be downloaded (${why.slice(0, 160)}); install with ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci to skip it for good`;
}

let electron = electronBinary();
const noDisplay = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
if (noDisplay) webMode('No display here (neither DISPLAY nor WAYLAND_DISPLAY is set)');
else if (!electron) {
  const failure = downloadElectron();
  electron = electronBinary();
  if (failure || !electron) webMode(failure ?? 'No Electron binary here');
  else launchDesktop(electron);
} else launchDesktop(electron);

function launchDesktop(electron) {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE; // Set, it would make Electron a plain Node.
  const app = spawn(electron, [root, ...process.argv.slice(2)], { stdio: 'inherit', env });
  // Ctrl-C reaches Electron too; wait for it to stop every agent and exit rather than leaving it behind.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => app.kill(signal));
  app.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
