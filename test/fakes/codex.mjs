#!/usr/bin/env node
// A stand-in for the Codex CLI's npm entry point `bin/codex.js` (docs/vendors.md §2): a node WRAPPER that runs the
// "native" codex (here test/fakes/codex-native.mjs) as its child with stdio inherited, forwards signals to it and
// exits as it exits. So, as with the real CLI, the PTY's child is not the process that holds the thread's files.
// Node builtins only.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const native = fileURLToPath(new URL('./codex-native.mjs', import.meta.url));
const child = spawn(process.execPath, [native, ...process.argv.slice(2)], { stdio: 'inherit', env: process.env });

const forward = (sig) => {
  if (child.exitCode === null && child.signalCode === null) {
    try {
      child.kill(sig);
    } catch {
      /* already gone */
    }
  }
};
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => forward(sig));

child.on('error', (err) => {
  process.stderr.write(`codex: could not start the native binary: ${err.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, as bin/codex.js does.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
