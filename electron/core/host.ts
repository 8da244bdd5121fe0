// The core host: store, terminals and runs under one data directory. Pure Node; no Electron, no transport.
import { join } from 'node:path';
import { PtyHost } from './pty/pty-host.js';
import { RunService } from './runs/run-service.js';
import { prepareDataDir } from './store/data-dir.js';
import { RunStore } from './store/run-store.js';
import type { VendorEnv } from './vendors/adapter.js';

export interface CoreHost {
  readonly dataDir: string;
  readonly version: string;
  readonly env: VendorEnv;
  readonly service: RunService;
  /** Snapshot what runs, stop every agent, release the terminals. */
  close(): Promise<void>;
}

export async function openCoreHost(options: { dataDir: string; env: VendorEnv; version: string }): Promise<CoreHost> {
  // Checked before anything in it is read: a directory others can write could plant a ledger of pids to signal.
  prepareDataDir(options.dataDir);
  const ptyHost = new PtyHost(join(options.dataDir, 'processes.json'));
  const swept = await ptyHost.sweep();
  if (swept > 0) process.stderr.write(`baton: stopped ${swept} process${swept === 1 ? '' : 'es'} left running by a previous Baton\n`);
  const store = await RunStore.open(options.dataDir);
  await markInterruptedAgents(store);
  const service = new RunService(store, ptyHost, options.env);
  return {
    dataDir: options.dataDir,
    version: options.version,
    env: options.env,
    service,
    async close() {
      await service.shutdown();
      await ptyHost.stopAll();
      ptyHost.close();
    },
  };
}

/** Agents recorded as running when the last core died did not survive it: say so in their status. */
async function markInterruptedAgents(store: RunStore): Promise<void> {
  for (const run of store.list()) {
    if (!run.agents.some((a) => a.status === 'running' || a.status === 'starting')) continue;
    const next = structuredClone(run);
    for (const a of next.agents) {
      if (a.status === 'running' || a.status === 'starting') {
        a.status = 'exited';
        a.exitCode = null;
      }
    }
    await store.save(next);
  }
}
