// The Hosts list and its requests (docs/hosts.md): this machine, the hosts of the user's ssh config, and the ones
// the user added (hosts.json in the data directory), each with the state of its connection; and the one RemoteCore
// per host that every remote agent of this core shares.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  HOST_ALIAS,
  hostAliasSchema,
  type HostState,
  type HostView,
  type RequestTable,
} from '../../../shared/contract.js';
import type { Announce } from '../runs/views.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import { readJsonFile } from '../store/safe-read.js';
import type { VendorEnv } from '../vendors/adapter.js';
import { listFolders } from './folders.js';
import { RemoteCore } from './remote-core.js';
import type { RemoteCores } from './remote-launcher.js';
import { prepareControlDir, resolveTarget, type SshOptions } from './ssh.js';

export type HostMethod = 'hosts.list' | 'hosts.add' | 'hosts.connect' | 'hosts.vendors' | 'hosts.folders';

const HOSTS_FILE = 'hosts.json';
const hostsFileSchema = z.strictObject({ v: z.literal(1), hosts: z.array(hostAliasSchema).max(256) });

export interface HostsOptions {
  dataDir: string;
  env: VendorEnv;
  version: string;
  packageRoot: string;
  announce: Announce;
  /** How many live agents of this core run on that host (null: this machine). */
  liveOn(alias: string | null): number;
}

export class Hosts implements RemoteCores {
  private readonly cores = new Map<string, RemoteCore>();
  private readonly targets = new Map<string, string | null>();
  private readonly ssh: SshOptions;

  constructor(private readonly options: HostsOptions) {
    this.ssh = {
      controlDir: join(options.dataDir, 'ssh'),
      ...(options.env.BATON_SSH_CONFIG ? { configFile: options.env.BATON_SSH_CONFIG } : {}),
    };
  }

  readonly requests: RequestTable<HostMethod> = {
    'hosts.list': () => this.list(),
    'hosts.add': async ({ host }) => {
      const added = await this.added();
      if (!added.includes(host) && !(await this.configHosts()).includes(host))
        await writeFileAtomic(
          join(this.options.dataDir, HOSTS_FILE),
          JSON.stringify({ v: 1, hosts: [...added, host] }, null, 2),
        );
      return this.view(host, (await this.configHosts()).includes(host) ? 'config' : 'added');
    },
    'hosts.connect': async ({ host }) => {
      // A failure is the host's state (its message names the step); the view says it either way.
      await this.core(host)
        .connect()
        .catch(() => undefined);
      return this.view(host, (await this.configHosts()).includes(host) ? 'config' : 'added');
    },
    'hosts.vendors': async ({ host }) => (await this.core(host).call('host.info', {})).vendors,
    // A host's folders are listed by its own core, which answers for its machine (host null there).
    'hosts.folders': ({ host, path }) =>
      host === null
        ? listFolders(path)
        : this.core(host).call('hosts.folders', { host: null, ...(path !== undefined ? { path } : {}) }),
  };

  core(alias: string): RemoteCore {
    let core = this.cores.get(alias);
    if (!core) {
      prepareControlDir(this.ssh.controlDir);
      core = new RemoteCore({
        alias,
        ssh: this.ssh,
        version: this.options.version,
        packageRoot: this.options.packageRoot,
        onState: () => {
          this.announceHost(alias);
        },
      });
      this.cores.set(alias, core);
    }
    return core;
  }

  /** The hosts this core is connected to now (none is connected for asking). */
  connected(): string[] {
    return [...this.cores.entries()].filter(([, core]) => core.state === 'connected').map(([alias]) => alias);
  }

  /** Ends this side's connections; the remote cores and their agents keep running. */
  close(): void {
    for (const core of this.cores.values()) core.close();
    this.cores.clear();
  }

  async list(): Promise<HostView[]> {
    const local: HostView = {
      alias: null,
      target: null,
      source: 'local',
      state: 'local',
      message: null,
      home: homedir(),
      liveAgents: this.options.liveOn(null),
    };
    const config = await this.configHosts();
    const added = (await this.added()).filter((h) => !config.includes(h));
    const used = [...this.cores.keys()].filter((h) => !config.includes(h) && !added.includes(h));
    return [
      local,
      ...(await Promise.all(config.map((h) => this.view(h, 'config')))),
      ...(await Promise.all([...added, ...used].map((h) => this.view(h, 'added')))),
    ];
  }

  private async view(alias: string, source: 'config' | 'added'): Promise<HostView> {
    if (!this.targets.has(alias)) this.targets.set(alias, await resolveTarget(alias, this.ssh).catch(() => null));
    const core = this.cores.get(alias);
    const state: HostState = core?.state ?? 'idle';
    return {
      alias,
      target: this.targets.get(alias) ?? null,
      source,
      state,
      message: core?.message ?? null,
      home: core?.home ?? null,
      liveAgents: this.options.liveOn(alias),
    };
  }

  private announceHost(alias: string): void {
    const core = this.cores.get(alias);
    if (!core) return;
    this.options.announce('host.changed', {
      alias,
      target: this.targets.get(alias) ?? null,
      source: 'added',
      state: core.state,
      message: core.message,
      home: core.home,
      liveAgents: this.options.liveOn(alias),
    });
  }

  /** The concrete `Host` names of the ssh config (patterns with * ? ! are rules, not hosts). */
  private async configHosts(): Promise<string[]> {
    const path = this.ssh.configFile ?? join(homedir(), '.ssh', 'config');
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      return [];
    }
    const names = new Set<string>();
    for (const line of text.split(/\r?\n/)) {
      const m = /^\s*Host\s+(.+)$/i.exec(line);
      if (!m) continue;
      for (const name of m[1]!.split(/\s+/)) if (HOST_ALIAS.test(name) && !/[*?!]/.test(name)) names.add(name);
    }
    return [...names];
  }

  private async added(): Promise<string[]> {
    const read = await readJsonFile(join(this.options.dataDir, HOSTS_FILE), 256 * 1024, hostsFileSchema);
    return read.ok ? read.value.hosts : [];
  }
}
