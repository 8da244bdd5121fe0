// What the Electron shell (electron/main.ts, electron/app/) may use of the core besides host.ts: a few small helpers,
// re-exported so the shell never names a core file directly and the core can move its internals freely. Kept light on
// purpose: Electron main loads this at startup, so nothing here may pull in the run service, the terminals or the
// transport.
export { packageRoot, packageVersion } from './paths.js';
export { writeFileAtomic } from './store/atomic-file.js';
export { reportFailure } from './log.js';
