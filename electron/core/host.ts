// The core host: store, terminals and runs under one data directory. Pure Node; no Electron, no transport.
import { join } from 'node:path';
import type { CoreSettings } from '../../shared/contract.js';
import { reportFailure } from './log.js';
import { PtyHost } from './pty/pty-host.js';
import { Recovery } from './runs/recovery.js';
import { RunService } from './runs/run-service.js';
import { prepareDataDir } from './store/data-dir.js';
import type { InterruptedRun } from './store/interrupted-file.js';
import { RunStore } from './store/run-store.js';
import { readSettings, updateSettings } from './store/settings.js';
import type { VendorEnv } from './vendors/adapter.js';

export interface CoreHost {
  readonly dataDir: string;
  readonly version: string;
  readonly env: VendorEnv;
  readonly service: RunService;
  /** When this core opened (ISO), for `core.info`. */
  readonly startedAt: string;
  /** The runs the previous core ended without the user stopping them, and resuming them. */
  readonly recovery: Recovery;
  settings(): Promise<CoreSettings>;
  updateSettings(change: Partial<CoreSettings>): Promise<CoreSettings>;
  /**
   * `core.shutdown`: with `resumeOnStart`, record the live runs for the next core; then close. The process that hosts
   * the core is told through `onShutdown` once the reply can go out, and ends itself.
   */
  shutdown(resumeOnStart: boolean): Promise<{ liveRuns: number }>;
  onShutdown(listener: () => void): void;
  /** Snapshot what runs, stop every agent, release the terminals. Once; later calls wait for the first. */
  close(): Promise<void>;
}

export async function openCoreHost(options: { dataDir: string; env: VendorEnv; version: string }): Promise<CoreHost> {
  const startedAt = new Date().toISOString();
  // Checked before anything in it is read: a directory others can write could plant a ledger of pids to signal.
  prepareDataDir(options.dataDir);
  const ptyHost = new PtyHost(join(options.dataDir, 'processes.json'));
  const swept = await ptyHost.sweep();
  if (swept > 0) process.stderr.write(`baton: stopped ${swept} process${swept === 1 ? '' : 'es'} left running by a previous Baton\n`);
  const store = await RunStore.open(options.dataDir);
  const crashed = await markInterruptedAgents(store);
  const service = new RunService(store, ptyHost, options.env);
  const recovery = await Recovery.open(options.dataDir, store, service, crashed, await readSettings(options.dataDir));
  const shutdownListeners: (() => void)[] = [];
  let closing: Promise<void> | null = null;

  const host: CoreHost = {
    dataDir: options.dataDir,
    version: options.version,
    env: options.env,
    service,
    startedAt,
    recovery,
    settings: () => readSettings(options.dataDir),
    updateSettings: (change) => updateSettings(options.dataDir, change),
    async shutdown(resumeOnStart) {
      const live = service.liveAgents();
      if (resumeOnStart) await recovery.recordRestart(live);
      await host.close();
      // After this turn: the reply to `core.shutdown` is sent first, then the host process ends.
      setImmediate(() => shutdownListeners.forEach((l) => l()));
      return { liveRuns: live.length };
    },
    onShutdown(listener) {
      shutdownListeners.push(listener);
    },
    close() {
      closing ??= (async () => {
        await service.shutdown();
        await ptyHost.stopAll();
        ptyHost.close();
      })();
      return closing;
    },
  };
  if (recovery.resumeOnStart) {
    const count = recovery.state().interrupted?.runs.length ?? 0;
    process.stderr.write(`baton: resuming ${count} run${count === 1 ? '' : 's'} that ${count === 1 ? 'was' : 'were'} running when the last core stopped\n`);
    recovery.resumeAll().catch((err: unknown) => reportFailure('resuming the interrupted runs', err));
  }
  return host;
}

/**
 * Agents recorded as running when the last core died did not survive it: say so in their status, and return them
 * (per run), so the next start can offer to resume exactly those.
 */
async function markInterruptedAgents(store: RunStore): Promise<InterruptedRun[]> {
  const interrupted: InterruptedRun[] = [];
  for (const run of store.list()) {
    const agentIds = run.agents.filter((a) => a.status === 'running' || a.status === 'starting').map((a) => a.id);
    if (agentIds.length === 0) continue;
    const next = structuredClone(run);
    for (const a of next.agents) {
      if (a.status === 'running' || a.status === 'starting') {
        a.status = 'exited';
        a.exitCode = null;
      }
    }
    await store.save(next);
    interrupted.push({ runId: run.id, agentIds });
  }
  return interrupted;
}
