// How a `baton serve` process ends, web mode and background core alike: SIGINT, SIGTERM or SIGHUP snapshot every live
// run and stop every agent (docs/architecture.md §8); so does `core.shutdown`, which a client sends to stop the core
// (the desktop app's "Stop all agents", a core restart). Then server.json is removed, if it is still ours, and the
// process exits.
import { rmSync } from 'node:fs';
import { serverFile } from './core/paths.js';
import type { CoreHost } from './core/host.js';
import { reportFailure } from './core/log.js';
import { readServerInfo } from './core/store/server-info.js';

export function stopOnSignalsAndShutdown(core: CoreHost, close: () => Promise<void>): void {
  let stopping = false;
  const stop = async (why: string | null) => {
    if (stopping) return;
    stopping = true;
    if (why) process.stderr.write(`baton: ${why}: snapshotting and stopping every agent…\n`);
    let code = 0;
    try {
      await close();
      await core.close();
    } catch (err) {
      reportFailure('shutting down', err);
      code = 1;
    }
    removeServerFileIfOurs(core.dataDir);
    process.exit(code);
  };
  const fail = (err: unknown) => {
    reportFailure('shutting down', err);
    process.exit(1);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      stop(signal).catch(fail);
    });
  }
  // The agents are already snapshotted and stopped when this is called; what remains is the transport.
  core.onShutdown(() => {
    process.stderr.write('baton: stopped every agent, as a client asked (core.shutdown); exiting\n');
    stop(null).catch(fail);
  });
}

/** A newer core may have replaced server.json (after this one was killed and restarted): never remove its file. */
function removeServerFileIfOurs(dataDir: string): void {
  try {
    const read = readServerInfo(dataDir);
    if (read.ok && read.info.pid !== process.pid) return;
    rmSync(serverFile(dataDir), { force: true });
  } catch {
    // A file we may not trust (a link, someone else's) is not ours to remove either.
  }
}
