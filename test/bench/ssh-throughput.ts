// test/bench/ssh.ts's throughput rounds (ROUNDS, none with BATON_BENCH_ECHO_ONLY=1), alternating within each round:
// the remote pane through this core, the same pane on the host's own core, plain `ssh host cat bigfile` (the goal's
// baseline), `ssh -tt` (a PTY there, as a pane has) and a PTY read by node-pty with no core at all.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RpcClient } from '../../shared/client.js';
import { sshArgs } from '../../electron/core/remote/ssh.js';
import type { BaseChain } from './ssh-base.js';
import type { SshChain } from './ssh-chain.js';
import { ROUNDS, paneThroughput, ptyAlone, sleep, sshRate } from './ssh-measures.js';

/** CPU ticks (10 ms) a process has used, 0 once it is gone. */
function ticks(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
}

/**
 * Waits (up to 10 s) until both cores are idle again: each pane round leaves the host's mirror a 32 MB parse (it holds
 * a burst back and parses it after), which otherwise lands in the next measure (the host-alone round right after the
 * remote pane's, and the baselines after that), as throughput.ts's `settled` keeps it out of its runs.
 */
export async function coresSettled(pids: number[]): Promise<void> {
  const until = performance.now() + 10_000;
  let last = pids.map(ticks);
  while (performance.now() < until) {
    await sleep(100);
    const now = pids.map(ticks);
    if (now.every((t, i) => t - last[i]! <= 1)) return;
    last = now;
  }
}

export interface Round {
  pane: number;
  /** The base build's remote pane (BATON_BENCH_BASE), in the same round. */
  basePane?: number;
  onHost: number;
  plain: number;
  tty: number;
  pty: number;
}

/** MB/s of each reader per round, and how many resets the remote pane got (a reset: not byte-exact). */
export async function throughputRounds(
  chain: SshChain,
  paneAgentId: string,
  direct: RpcClient,
  remotePaneId: string,
  base: BaseChain | null = null,
): Promise<{ rounds: Round[]; resets: number }> {
  const rounds: Round[] = [];
  let resets = 0;
  const catArgs = (extra: string[]) => [...sshArgs('devbox', chain.ssh, extra), `cat "$HOME/bench/big.txt"`];
  const hostCore = (
    JSON.parse(readFileSync(join(chain.sshd.remoteHome, '.baton', 'server.json'), 'utf8')) as { pid: number }
  ).pid;
  const settle = () => coresSettled([hostCore, chain.server.child.pid!, ...(base ? [base.hostCorePid()] : [])]);
  for (let r = 0; r < ROUNDS; r++) {
    await settle();
    const pane = await paneThroughput(chain.client, paneAgentId, `L${r}`, chain.bigBytes);
    await settle();
    const onHost = await paneThroughput(direct, remotePaneId, `H${r}`, chain.bigBytes);
    resets += pane.resets;
    let basePane: number | undefined;
    if (base) {
      await settle();
      // The same file (the base build's host is this machine too): its own bench directory has none.
      const b = await paneThroughput(
        base.client,
        base.paneAgentId,
        `B${r}`,
        chain.bigBytes,
        join(chain.work, 'big.txt'),
      );
      basePane = b.rate;
      resets += b.resets;
    }
    await settle();
    const plain = await sshRate(catArgs([]), chain.bigBytes, true);
    const tty = await sshRate(catArgs(['-tt']), chain.bigBytes, false);
    const pty = await ptyAlone(join(chain.work, 'big.txt'), chain.bigBytes);
    rounds.push({ pane: pane.rate, onHost: onHost.rate, plain, tty, pty, ...(basePane ? { basePane } : {}) });
  }
  return { rounds, resets };
}
