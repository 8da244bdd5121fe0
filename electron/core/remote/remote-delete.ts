// Before `run.delete {removeWorktrees}` stops anything: the worktrees of the run's agents on other hosts are checked
// for uncommitted work by each host's core (`worktrees.uncommitted` there), as this machine's are here, and the delete is
// refused the same way, naming the host and the worktree (docs/hosts.md "Worktrees on a host").
import { BatonError } from '../../../shared/contract.js';
import type { RunManifest } from '../store/types.js';
import type { RemoteLauncher } from './remote-launcher.js';

export async function checkRemovableOnHosts(launcher: RemoteLauncher, run: RunManifest): Promise<void> {
  const hosts = new Set(run.agents.flatMap((a) => (a.host && a.worktree?.created ? [a.host] : [])));
  for (const host of hosts) {
    const core = launcher.cores.core(host);
    let dirty: { label: string; worktreePath: string; files: number }[];
    try {
      await core.connect();
      const there = await launcher.remoteRun(core, run.id);
      if (!there) continue;
      dirty = await core.call('worktrees.uncommitted', { run: there.id });
    } catch (err) {
      throw refused(
        `${host} cannot be asked about its worktrees now (${(err as Error).message}), so they can be neither checked nor removed: reconnect it, or delete the run without removing its worktrees; nothing was deleted`,
      );
    }
    const first = dirty[0];
    if (first) {
      const n = first.files;
      throw refused(
        `agent '${first.label}' has uncommitted changes in its worktree ${first.worktreePath} on ${host} (${n} file${n === 1 ? '' : 's'}): commit them there, or remove that worktree with force first; nothing was deleted`,
      );
    }
  }
}

function refused(message: string): BatonError {
  return new BatonError({ code: 'conflict', message });
}
