// test/bench/ssh.ts's throughput rounds (ROUNDS, none with BATON_BENCH_ECHO_ONLY=1), alternating within each round:
// the remote pane through this core, the same pane on the host's own core, plain `ssh host cat bigfile` (the goal's
// baseline), `ssh -tt` (a PTY there, as a pane has) and a PTY read by node-pty with no core at all.
import { join } from 'node:path';
import type { RpcClient } from '../../shared/client.js';
import { sshArgs } from '../../electron/core/remote/ssh.js';
import type { SshChain } from './ssh-chain.js';
import { ROUNDS, paneThroughput, ptyAlone, sshRate } from './ssh-measures.js';

export interface Round {
  pane: number;
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
): Promise<{ rounds: Round[]; resets: number }> {
  const rounds: Round[] = [];
  let resets = 0;
  const catArgs = (extra: string[]) => [...sshArgs('devbox', chain.ssh, extra), `cat "$HOME/bench/big.txt"`];
  for (let r = 0; r < ROUNDS; r++) {
    const pane = await paneThroughput(chain.client, paneAgentId, `L${r}`, chain.bigBytes);
    const onHost = await paneThroughput(direct, remotePaneId, `H${r}`, chain.bigBytes);
    resets += pane.resets;
    const plain = await sshRate(catArgs([]), chain.bigBytes, true);
    const tty = await sshRate(catArgs(['-tt']), chain.bigBytes, false);
    const pty = await ptyAlone(join(chain.work, 'big.txt'), chain.bigBytes);
    rounds.push({ pane: pane.rate, onHost: onHost.rate, plain, tty, pty });
  }
  return { rounds, resets };
}
