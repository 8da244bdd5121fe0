// Remote agents over ssh (docs/hosts.md), against plain ssh over the same shared connection, in the same run:
// keystroke echo p99 through a remote agent (a raw-echo CLI in a remote pane) vs `ssh host cat` echo, and a remote
// pane's throughput vs `ssh host cat bigfile`. Needs sshd (test/helpers/sshd.ts) and a build (`npm run build`).
// Keys go as a pane's do (input frames on the attached stream), to the remote agent and to `ssh host cat` in turn, in
// blocks of 10 (BATON_BENCH_KEYS per side, 300), so both sides of the echo goal share the load of the same moments
// (ssh-echo.ts). Throughput is measured in rounds (ssh-throughput.ts; none with BATON_BENCH_ECHO_ONLY=1).
// Run: npx tsx test/bench/ssh.ts   (BATON_BENCH_PROFILE=<dir>: CPU profiles of both cores there, for
// test/bench/profile-summary.ts). The cores' A/B switches reach both cores (ssh-chain.ts; BATON_BENCH_TUNE=host or
// =local for one). A/B in one run: BATON_BENCH_HOST_B (a second host with more switches), BATON_BENCH_BASE (another
// build's whole chain), BATON_BENCH_LOCAL_ECHO (this core's own hop); BATON_BENCH_TIMES for echo-pool.ts
// (docs/performance.md, "Remote echo (echo14)"); BATON_BENCH_KEY_LOG for ssh-hops.ts (hop by hop, "Remote echo tail
// (echo15)").
import type { BaseChain } from './ssh-base.js';
import { startChain } from './ssh-chain.js';
import { hostDiagnostics, pairedEcho, startBenchRun } from './ssh-echo.js';
import { printReport } from './ssh-report.js';
import { throughputRounds } from './ssh-throughput.js';
import { load } from './renderer-kit.js';

async function main(): Promise<void> {
  const chain = await startChain();
  let base: BaseChain | null = null;
  try {
    const run = await startBenchRun(chain);
    const echo = await pairedEcho(chain, run, (b) => (base = b));
    const host = await hostDiagnostics(chain, run.id);
    const { rounds, resets } = await throughputRounds(
      chain,
      run.paneAgentId,
      host.direct,
      host.remotePaneId,
      base as BaseChain | null,
    );
    host.direct.close();
    printReport(echo, host, rounds, resets);
    console.log(`load at end: ${load()}`);
  } finally {
    await (base as BaseChain | null)?.stop();
    await chain.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
