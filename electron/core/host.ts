// The core host: store, terminals and runs under one data directory, and every request of the contract but the two
// a client session answers itself. Pure Node; no Electron, no transport.
import { CostService } from './cost/cost-service.js';
import { EventEmitter } from 'node:events';
import { isAbsolute, join } from 'node:path';
import {
  PROTOCOL_VERSION,
  type CoreSettings,
  type Method,
  type RequestTable,
  type SnapshotView,
} from '../../shared/contract.js';
import { reportFailure } from './log.js';
import { PtyHost } from './pty/pty-host.js';
import { AgentLauncher } from './runs/agent-launcher.js';
import { AgentSupervisor } from './runs/agent-supervisor.js';
import { AgentWorktrees } from './runs/agent-worktrees.js';
import { Recovery } from './runs/recovery.js';
import { ResumePlanner } from './runs/resume-planner.js';
import { RunRepository } from './runs/run-repository.js';
import { HEALTH_FILE } from './runs/health-file.js';
import { COST_FILE } from './cost/cost-file.js';
import { VERSION_CACHE_FILE, VersionCache } from './vendors/kit/version-cache.js';
import { RunService, type StreamMethod } from './runs/run-service.js';
import { Snapshots } from './runs/snapshots.js';
import { portableRequests, type PortableMethod } from './runs/portable.js';
import type { Announce } from './runs/views.js';
import { SearchService } from './search/search-service.js';
import { Hosts } from './remote/hosts.js';
import { hostWorktreeRequests } from './remote/host-worktree-requests.js';
import { withHostOrphans } from './remote/host-orphans.js';
import { RemoteCosts } from './remote/remote-cost.js';
import { RemoteLauncher } from './remote/remote-launcher.js';
import { packageRoot } from './paths.js';
import { prepareDataDir } from './store/data-dir.js';
import { RunStore } from './store/run-store.js';
import { readSettings, updateSettings } from './store/settings.js';
import type { VendorEnv } from './vendors/adapter.js';
import { inheritedEnv } from './vendors/kit/env.js';
import { createVendors } from './vendors/registry.js';
import { Worktrees } from './worktrees/index.js';
import { AttentionService } from './attention/attention-service.js';
import { defaultHookLauncher } from './attention/hook-launcher.js';

/** Every request a client session hands to the core (docs/architecture.md §3). */
export type CoreMethod = Exclude<Method, StreamMethod>;

export interface CoreHost {
  readonly dataDir: string;
  readonly version: string;
  readonly env: VendorEnv;
  readonly service: RunService;
  /** When this core opened (ISO), for `core.info`. */
  readonly startedAt: string;
  /** The runs the previous core ended without the user stopping them, and resuming them. */
  readonly recovery: Recovery;
  /**
   * Every request but the streams', by its name in the contract: the run service's and recovery's own tables as they
   * are, and the host's few. Written once, where each is answered; a missing or mistyped one does not compile.
   */
  readonly requests: RequestTable<CoreMethod>;
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
  if (swept > 0)
    process.stderr.write(
      `baton: stopped ${swept} process${swept === 1 ? '' : 'es'} left running by a previous Baton\n`,
    );
  const runs = new RunRepository(await RunStore.open(options.dataDir));
  const crashed = await runs.markInterrupted();
  // Remote hosts over ssh (docs/hosts.md): one connection per host, shared by that host's agents.
  const hosts = new Hosts({
    dataDir: options.dataDir,
    env: options.env,
    version: options.version,
    packageRoot: packageRoot(),
    announce: (name, payload) => service.announce(name, payload),
    liveOn: (alias) =>
      service
        .liveAgents()
        .flatMap(({ runId, agentIds }) => runs.get(runId)?.agents.filter((a) => agentIds.includes(a.id)) ?? [])
        .filter((a) => (a.host ?? null) === alias).length,
  });
  const { service, portable } = runService(runs, ptyHost, options.env, options.dataDir, new RemoteLauncher(hosts));
  service.warmHealth(join(options.dataDir, HEALTH_FILE));
  service.warmCosts(join(options.dataDir, COST_FILE));
  const versions = new VersionCache(join(options.dataDir, VERSION_CACHE_FILE));
  await service.attention.open(options.dataDir);
  const recovery = await Recovery.open(options.dataDir, runs, service, crashed, await readSettings(options.dataDir));
  const search = new SearchService({
    dataDir: options.dataDir,
    env: options.env,
    runs,
    resume: (handle) => service.requests['run.resume']({ handle }),
    announce: (status) => service.announce('search.progress', status),
  });
  search.start();
  const shutdownListeners: (() => void)[] = [];
  let closing: Promise<void> | null = null;

  const host: CoreHost = {
    dataDir: options.dataDir,
    version: options.version,
    env: options.env,
    service,
    startedAt,
    recovery,
    requests: {
      ...service.requests,
      ...recovery.requests,
      'host.info': async () => ({
        version: options.version,
        dataDir: options.dataDir,
        vendors: await service.vendors.detect(options.env, versions),
      }),
      'core.info': async () => ({
        version: options.version,
        protocolVersion: PROTOCOL_VERSION,
        pid: process.pid,
        startedAt,
        liveAgents: service.liveAgents().reduce((n, r) => n + r.agentIds.length, 0),
      }),
      'core.shutdown': ({ resumeOnStart }) => host.shutdown(resumeOnStart),
      ...service.worktrees.requests,
      ...withHostOrphans(service.worktrees.requests, hosts),
      ...search.requests,
      ...hosts.requests,
      ...hostWorktreeRequests(hosts, { runs, worktrees: service.worktrees }),
      ...portable,
      ...service.attention.requests,
      'settings.get': () => host.settings(),
      'settings.set': (change) => host.updateSettings(stripUndefined(change)),
    },
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
        await search.close();
        service.worktrees.close();
        await service.attention.close();
        await ptyHost.stopAll();
        ptyHost.close();
        hosts.close();
      })();
      return closing;
    },
  };
  if (recovery.resumeOnStart) {
    const count = recovery.state().interrupted?.runs.length ?? 0;
    process.stderr.write(
      `baton: resuming ${count} run${count === 1 ? '' : 's'} that ${count === 1 ? 'was' : 'were'} running when the last core stopped\n`,
    );
    recovery.resumeAll().catch((err: unknown) => reportFailure('resuming the interrupted runs', err));
  }
  return host;
}

/**
 * The run service over its parts, each given what it needs through its constructor: one repository, one PTY host and
 * one set of vendors per core (their claims and caches are this core's own; docs/architecture.md §9).
 */
function runService(
  runs: RunRepository,
  ptyHost: PtyHost,
  env: VendorEnv,
  dataDir: string,
  remote: RemoteLauncher,
): { service: RunService; portable: RequestTable<PortableMethod> } {
  const vendors = createVendors();
  const events = new EventEmitter();
  const announce: Announce = (name, payload) => {
    events.emit(name, payload);
  };
  // One Worktrees per core: its ledger and approvals are this data directory's (docs/worktrees.md). git and setup
  // commands get the agents' environment (never Baton's token); BATON_WORKTREES_DIR moves where new ones go.
  const gitEnv = inheritedEnv(env);
  const baseDir = env.BATON_WORKTREES_DIR && isAbsolute(env.BATON_WORKTREES_DIR) ? env.BATON_WORKTREES_DIR : undefined;
  const worktrees = new AgentWorktrees(
    new Worktrees({ dataDir, env: gitEnv, ...(baseDir ? { baseDir } : {}) }),
    runs,
    gitEnv,
    announce,
  );
  const attention = new AttentionService(runs, announce, env, defaultHookLauncher());
  // An agent that exits on its own is snapshotted; the supervisor calls this only once everything below exists.
  const snapshotAfterExit = (runId: string): Promise<SnapshotView> => snapshots.snapshot(runId, 'exit');
  const supervisor = new AgentSupervisor(
    runs,
    new AgentLauncher(ptyHost, env),
    vendors,
    env,
    announce,
    snapshotAfterExit,
    worktrees,
    attention,
    remote,
  );
  const cost = new CostService(vendors, env, dataDir, new RemoteCosts(remote.cores));
  const snapshots: Snapshots = new Snapshots(runs, supervisor, vendors, env, announce, cost);
  // A write the disk refused (full, say) is told to the user once per outage; the run's agents keep running.
  runs.onWriteProblem(({ runId, message }) => {
    const agentId = runs.get(runId)?.agents[0]?.id;
    if (agentId) announce('agent.warning', { runId, agentId, message });
  });
  const service = new RunService(
    runs,
    new ResumePlanner(runs, vendors, env, worktrees, remote.cores),
    supervisor,
    snapshots,
    vendors,
    env,
    events,
    worktrees,
    cost,
    attention,
  );
  return {
    service,
    portable: portableRequests({ runs, supervisor, snapshots, vendors, env, worktrees, announce, service }),
  };
}

/** `{quitAction: undefined}` would overwrite a saved choice with nothing: only the keys given change. */
function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
