// test/bench/ssh.ts's echo figures: keys typed in turn into the remote agent, `ssh devbox cat` on the same shared
// connection (the goal's baseline) and, when asked, host B's agent (BATON_BENCH_HOST_B), another build's whole chain
// (BATON_BENCH_BASE) and an agent on this machine (BATON_BENCH_LOCAL_ECHO); then, after that rotation, the same remote
// agent through the host's core alone and through the socket ssh forwards to it (diagnostics: what each hop adds).
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RpcClient } from '../../shared/client.js';
import { sshArgs } from '../../electron/core/remote/ssh.js';
import { connect } from '../../electron/cli/connect.js';
import { fmt, ms, quantile, saveTimes } from './stats.js';
import { startBaseChain, type BaseChain } from './ssh-base.js';
import { connectHostCore, type SshChain } from './ssh-chain.js';
import { ECHO, dataArrived, echoPaired, echoTarget, sleep, type EchoTarget } from './ssh-measures.js';
import { recordPids } from './ssh-pids.js';

export interface EchoFigures {
  remote: number[];
  remotePauses: number[];
  plain: number[];
  /** `ssh -tt host cat` with a raw PTY there: the like-for-like baseline (diagnostic). */
  tty: number[];
  /** Host B's agent (BATON_BENCH_HOST_B), typed in the same rotation. */
  remoteB?: number[];
}

export interface BenchRun {
  id: string;
  paneAgentId: string;
}

/** The bench's run on devbox: the echo agent, an idle shell (the throughput pane), and host B's echo agent. */
export async function startBenchRun(chain: SshChain): Promise<BenchRun & { echoId: string; echoBId?: string }> {
  const run = await chain.client.call('run.start', {
    name: 'bench-ssh',
    agents: [
      { vendor: 'shell', label: 'echo', cwd: chain.work, host: 'devbox', command: ['node', '-e', ECHO] },
      {
        vendor: 'shell',
        label: 'pane',
        cwd: chain.work,
        host: 'devbox',
        command: ['/bin/bash', '--noprofile', '--norc'],
      },
      ...(chain.hostB
        ? [
            {
              vendor: 'shell' as const,
              label: 'echo-b',
              cwd: chain.hostB.sshd.remoteHome,
              host: 'devbox2',
              command: ['node', '-e', ECHO],
            },
          ]
        : []),
    ],
  });
  const [echo, pane, echoB] = run.agents;
  return { id: run.id, echoId: echo!.id, paneAgentId: pane!.id, echoBId: echoB?.id };
}

/**
 * `ssh devbox cat` on the local core's shared connection, as an echo target; `detach` closes its input. With `tty`,
 * `ssh -tt` and a raw PTY there (a diagnostic: what a PTY on the host costs, as an agent's pane has one).
 */
function sshCat(chain: SshChain, tty: boolean): { target: EchoTarget; detach(): void } {
  const args = tty
    ? [...sshArgs('devbox', chain.ssh, ['-tt', '-q']), 'stty raw -echo && exec cat']
    : [...sshArgs('devbox', chain.ssh), 'cat'];
  const cat = spawn('ssh', args, { stdio: ['pipe', 'pipe', 'inherit'] });
  let text = '';
  let bytes = 0;
  cat.stdout.on('data', (d: Buffer) => {
    text = (text + d.toString('latin1')).slice(-64);
    bytes += d.length;
    dataArrived();
  });
  return {
    target: { type: (k) => cat.stdin.write(k), received: () => bytes, text: () => text },
    detach: () => cat.stdin.end(),
  };
}

/** An echo agent on this machine, through this core alone (its own hop, in the rotation). */
async function localEchoTarget(chain: SshChain) {
  const run = await chain.client.call('run.start', {
    name: 'bench-ssh-local',
    agents: [{ vendor: 'shell', label: 'echo', cwd: chain.dir, command: [process.execPath, '-e', ECHO] }],
  });
  return echoTarget(chain.client, run.agents[0]!.id, 'the local echo agent');
}

const line = (what: string, xs: number[]) => `${what}: p50 ${ms(quantile(xs, 0.5))}, p99 ${ms(quantile(xs, 0.99))}`;

/** The goal's rotation (and the optional A/B targets in it); `base` is started here and left for the caller to stop. */
export async function pairedEcho(
  chain: SshChain,
  run: { echoId: string; echoBId?: string },
  onBase: (base: BaseChain) => void,
): Promise<EchoFigures> {
  const echo = await echoTarget(chain.client, run.echoId, 'the remote echo agent');
  const echoB = run.echoBId ? await echoTarget(chain.client, run.echoBId, "host B's echo agent") : null;
  const local = process.env.BATON_BENCH_LOCAL_ECHO ? await localEchoTarget(chain) : null;
  const baseDir = process.env.BATON_BENCH_BASE;
  const base = baseDir ? await startBaseChain(baseDir, chain.dir, chain.hostTuning) : null;
  if (base) onBase(base);
  const cat = sshCat(chain, false);
  const tty = sshCat(chain, true);
  await sleep(500);
  const targets: [string, EchoTarget][] = [
    ['remote', echo.target],
    ['plain ssh', cat.target],
    ['ssh -tt', tty.target],
    ...(echoB ? [['host B', echoB.target] as [string, EchoTarget]] : []),
    ...(base ? [['base build', base.target] as [string, EchoTarget]] : []),
    ...(local ? [['local agent', local.target] as [string, EchoTarget]] : []),
  ];
  recordPids(
    chain,
    targets.map(([name]) => name),
  );
  const paired = await echoPaired(targets.map(([, target]) => target));
  for (const done of [cat, tty, echoB, local, echo]) done?.detach();
  const times = Object.fromEntries(targets.map(([name], i) => [name, paired.times[i]!]));
  const { remote, 'plain ssh': plain, 'ssh -tt': ttyTimes } = times as Record<string, number[]>;
  console.log(line('`ssh -tt host cat` (a PTY there, raw)', ttyTimes!));
  if (times['local agent']) console.log(line('a local agent through this core alone', times['local agent']));
  saveTimes('ssh', times);
  const baseTimes = times['base build'];
  if (baseTimes)
    console.log(
      `base build's chain (${baseDir}): p50 ${ms(quantile(baseTimes, 0.5))}, p90 ${ms(quantile(baseTimes, 0.9))}, ` +
        `p99 ${ms(quantile(baseTimes, 0.99))} (this build ${ms(quantile(remote!, 0.99))}: ` +
        `${fmt(quantile(remote!, 0.99) / quantile(baseTimes, 0.99), 2)}× base)`,
    );
  return { remote: remote!, remotePauses: paired.pauses[0]!, plain: plain!, tty: ttyTimes!, remoteB: times['host B'] };
}

export interface HostDiagnostics {
  /** The host's core on its own socket: no ssh, no local core. */
  onHost: number[];
  onHostPauses: number[];
  /** The host's core through the socket ssh forwards to it: ssh, but not this core. */
  overSsh: number[];
  /** The host's core, for the throughput rounds (closed by the caller), and the pane agent's id there. */
  direct: RpcClient;
  remotePaneId: string;
}

/** The same remote agent typed into on its own core's socket, then through ssh's forwarded socket. */
export async function hostDiagnostics(chain: SshChain, runId: string): Promise<HostDiagnostics> {
  const { client: direct, token } = await connectHostCore(chain);
  const remoteRun = (await direct.call('run.list', {})).find((r) => r.name === runId)!;
  const agents = (await direct.call('run.get', { run: remoteRun.id })).agents;
  const echoId = agents.find((a) => a.label === 'echo')!.id;
  const onHostEcho = await echoTarget(direct, echoId, 'the echo agent on its host', false);
  const alone = await echoPaired([onHostEcho.target]);
  onHostEcho.detach();
  const forwarded = readdirSync(chain.ssh.controlDir).find((f) => /^core-[0-9a-f]+\.sock$/.test(f))!;
  const viaSsh = await connect({ socket: join(chain.ssh.controlDir, forwarded), token });
  const overSshEcho = await echoTarget(viaSsh, echoId, 'the echo agent over ssh', false);
  const overSsh = (await echoPaired([overSshEcho.target])).times[0]!;
  overSshEcho.detach();
  viaSsh.close();
  return {
    onHost: alone.times[0]!,
    onHostPauses: alone.pauses[0]!,
    overSsh,
    direct,
    remotePaneId: agents.find((a) => a.label === 'pane')!.id,
  };
}
