// Remote agents over ssh (docs/hosts.md), against plain ssh over the same shared connection, in the same run:
// keystroke echo p99 through a remote agent (a raw-echo CLI in a remote pane) vs `ssh host cat` echo, and a remote
// pane's throughput vs `ssh host cat bigfile`. Needs sshd (test/helpers/sshd.ts) and a build (`npm run build`).
// Keys go as a pane's do (input frames on the attached stream), to the remote agent and to `ssh host cat` in turn, in
// blocks of 10 (BATON_BENCH_KEYS per side, 300), so both sides of the echo goal share the load of the same moments.
// Throughput is measured ROUNDS times, alternating the remote pane, the same pane on the host's own core (diagnostic:
// that core alone, no ssh, no local core), plain ssh, and two like-for-like diagnostics: `ssh -tt` (a PTY there, as a
// pane has) and a PTY read by node-pty with no core.
// Run: npx tsx test/bench/ssh.ts   (BATON_BENCH_PROFILE=<dir>: CPU profiles of both cores there, for
// test/bench/profile-summary.ts). The cores' A/B switches in the bench's environment (coreTuning: BATON_MIRROR_*,
// BATON_OUTPUT_*) reach both cores, the host's through the test sshd's SetEnv (never a shell string);
// BATON_BENCH_TUNE=host or =local gives them to that core only. A/B in one run: BATON_BENCH_HOST_B (a second host
// with more switches), BATON_BENCH_BASE (another build's whole chain), BATON_BENCH_LOCAL_ECHO (this core's own hop);
// BATON_BENCH_TIMES for echo-pool.ts (docs/performance.md, "Remote echo (echo14)").
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RpcClient } from '../../shared/client.js';
import { sshArgs } from '../../electron/core/remote/ssh.js';
import { startSshd } from '../helpers/sshd.js';
import { startServer, tempDir, testEnv, waitFor } from '../helpers/server.js';
import { fmt, median, ms, quantile, saveTimes } from './stats.js';
import { coreTuning, load } from './renderer-kit.js';
import { hostBSwitches, shutdownRemoteCore, startHostB } from './ssh-host-b.js';
import { startBaseChain, type BaseChain } from './ssh-base.js';
import {
  BIG_MB,
  ROUNDS,
  profileEnv,
  ECHO,
  echoTarget,
  sleep,
  QUICK_MS,
  echoPaired,
  ptyAlone,
  sshRate,
  paneThroughput,
} from './ssh-measures.js';

async function main(): Promise<void> {
  const tuning = coreTuning();
  const tune = process.env.BATON_BENCH_TUNE ?? 'both';
  if (!['both', 'host', 'local'].includes(tune)) throw new Error('BATON_BENCH_TUNE is both, host or local');
  const hostTuning = tune === 'local' ? {} : tuning;
  const localTuning = tune === 'host' ? {} : tuning;
  console.log(`switches: host core ${JSON.stringify(hostTuning)}, local core ${JSON.stringify(localTuning)}`);
  console.log(`load at start: ${load()}`);
  const sshd = await startSshd({ env: { ...profileEnv('remote'), ...hostTuning } });
  const dir = tempDir('baton-bench-ssh-');
  const switchesB = hostBSwitches();
  const hostB = switchesB
    ? await startHostB(sshd, { ...profileEnv('remote-b'), ...hostTuning, ...switchesB }, dir)
    : null;
  if (switchesB) console.log(`host B (devbox2) core also gets ${JSON.stringify(switchesB)}`);
  const configFile = hostB?.configFile ?? sshd.configFile;
  const dataDir = join(dir, 'data');
  const env = testEnv(join(dir, 'home'), {
    BATON_SSH_CONFIG: configFile,
    ...profileEnv('local'),
    ...localTuning,
  });
  const server = await startServer(dataDir, env);
  const client: RpcClient = await server.connect();
  const ssh = { controlDir: join(dataDir, 'ssh'), configFile };
  let baseChain: BaseChain | null = null;
  try {
    for (const alias of hostB ? ['devbox', 'devbox2'] : ['devbox']) {
      const host = await client.call('hosts.connect', { host: alias });
      if (host.state !== 'connected') throw new Error(`${alias}: ${host.message ?? host.state}`);
    }
    const work = join(sshd.remoteHome, 'bench');
    mkdirSync(work, { mode: 0o700 });
    const line = `${'0123456789abcdefghijklmnopqrstuvwxyz'.repeat(2)}\n`;
    writeFileSync(join(work, 'big.txt'), line.repeat(Math.ceil((BIG_MB * 1e6) / line.length)));
    const bigBytes = Math.ceil((BIG_MB * 1e6) / line.length) * line.length;

    // Keystroke echo through a remote agent: agent.write → remote PTY → echo → remote core → ssh → this core → client.
    const run = await client.call('run.start', {
      name: 'bench-ssh',
      agents: [
        { vendor: 'shell', label: 'echo', cwd: work, host: 'devbox', command: ['node', '-e', ECHO] },
        { vendor: 'shell', label: 'pane', cwd: work, host: 'devbox', command: ['/bin/bash', '--noprofile', '--norc'] },
        ...(hostB
          ? [
              {
                vendor: 'shell' as const,
                label: 'echo-b',
                cwd: hostB.sshd.remoteHome,
                host: 'devbox2',
                command: ['node', '-e', ECHO],
              },
            ]
          : []),
      ],
    });
    const [echoAgent, paneAgent] = run.agents;
    let paneText = '';
    let paneBytes = 0;
    const echoStream = await client.attach(
      echoAgent!.id,
      { fromOffset: 0, autoAck: true },
      {
        onData: (d) => {
          paneText = (paneText + Buffer.from(d).toString('latin1')).slice(-64);
          paneBytes += d.length;
        },
        onReset: () => undefined,
      },
    );
    await waitFor(() => paneText.includes('READY'), 'the remote echo agent');
    // Host B's echo agent (BATON_BENCH_HOST_B): typed in turn with the other two.
    const echoB = hostB ? await echoTarget(client, run.agents[2]!.id, "host B's echo agent") : null;
    // BATON_BENCH_LOCAL_ECHO=1: an echo agent on this machine, through this core alone (its own hop, in the rotation).
    const localEcho = process.env.BATON_BENCH_LOCAL_ECHO
      ? await client
          .call('run.start', {
            name: 'bench-ssh-local',
            agents: [{ vendor: 'shell', label: 'echo', cwd: dir, command: [process.execPath, '-e', ECHO] }],
          })
          .then((r) => echoTarget(client, r.agents[0]!.id, 'the local echo agent'))
      : null;
    // BATON_BENCH_BASE=<checkout>: that build's whole chain, typed in turn with this one's.
    const baseDir = process.env.BATON_BENCH_BASE;
    if (baseDir) baseChain = await startBaseChain(baseDir, dir, hostTuning);
    // The goal's baseline, typed in turn with the remote agent: `ssh devbox cat` on the same shared connection.
    const cat = spawn('ssh', [...sshArgs('devbox', ssh), 'cat'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let catText = '';
    let catBytes = 0;
    cat.stdout.on('data', (d: Buffer) => {
      catText = (catText + d.toString('latin1')).slice(-64);
      catBytes += d.length;
    });
    await sleep(500);
    const paired = await echoPaired([
      { type: (k) => echoStream.input(k), received: () => paneBytes, text: () => paneText },
      { type: (k) => cat.stdin.write(k), received: () => catBytes, text: () => catText },
      ...(echoB ? [echoB.target] : []),
      ...(baseChain ? [baseChain.target] : []),
      ...(localEcho ? [localEcho.target] : []),
    ]);
    cat.stdin.end();
    echoB?.detach();
    localEcho?.detach();
    const [remote, plain] = paired.times as [number[], number[]];
    const remoteB = echoB ? paired.times[2] : undefined;
    const baseTimes = baseChain ? paired.times[echoB ? 3 : 2] : undefined;
    const localTimes = localEcho ? paired.times.at(-1) : undefined;
    if (localTimes)
      console.log(
        `a local agent through this core alone: p50 ${ms(quantile(localTimes, 0.5))}, p99 ${ms(quantile(localTimes, 0.99))}`,
      );
    saveTimes('ssh', {
      remote,
      'plain ssh': plain,
      ...(remoteB ? { 'host B': remoteB } : {}),
      ...(baseTimes ? { 'base build': baseTimes } : {}),
      ...(localTimes ? { 'local agent': localTimes } : {}),
    });
    if (baseTimes)
      console.log(
        `base build's chain (${baseDir}): p50 ${ms(quantile(baseTimes, 0.5))}, p90 ${ms(quantile(baseTimes, 0.9))}, ` +
          `p99 ${ms(quantile(baseTimes, 0.99))} (this build ${ms(quantile(remote, 0.99))}: ` +
          `${fmt(quantile(remote, 0.99) / quantile(baseTimes, 0.99), 2)}× base)`,
      );
    const remotePauses = paired.pauses[0]!;

    // Diagnostic: the same remote agent typed into on its own core's socket (no ssh, no local core).
    const { connect } = await import('../../electron/cli/connect.js');
    const { readFileSync } = await import('node:fs');
    const info = JSON.parse(readFileSync(join(sshd.remoteHome, '.baton', 'server.json'), 'utf8')) as {
      socket: string;
      token: string;
    };
    const direct = await connect({ socket: info.socket, token: info.token });
    const remoteRun = (await direct.call('run.list', {})).find((r) => r.name === run.id)!;
    const remoteEcho = (await direct.call('run.get', { run: remoteRun.id })).agents.find((a) => a.label === 'echo')!;
    let directText = '';
    let directBytes = 0;
    const directStream = await direct.attach(
      remoteEcho.id,
      { fromOffset: 0, autoAck: true },
      {
        onData: (d) => {
          directText = (directText + Buffer.from(d).toString('latin1')).slice(-64);
          directBytes += d.length;
        },
        onReset: () => undefined,
      },
    );
    await sleep(300);
    const alone = await echoPaired([
      { type: (k) => directStream.input(k), received: () => directBytes, text: () => directText },
    ]);
    const onHost = alone.times[0]!;
    const onHostPauses = alone.pauses[0]!;
    directStream.detach();

    // Diagnostic: the host's core through the socket OpenSSH forwards to it (ssh, but not this core): what ssh adds.
    const { readdirSync } = await import('node:fs');
    const forwarded = readdirSync(join(dataDir, 'ssh')).find((f) => /^core-[0-9a-f]+\.sock$/.test(f))!;
    const viaSsh = await connect({ socket: join(dataDir, 'ssh', forwarded), token: info.token });
    let sshText = '';
    let sshBytes = 0;
    const sshStream = await viaSsh.attach(
      remoteEcho.id,
      { fromOffset: 0, autoAck: true },
      {
        onData: (d) => {
          sshText = (sshText + Buffer.from(d).toString('latin1')).slice(-64);
          sshBytes += d.length;
        },
        onReset: () => undefined,
      },
    );
    await sleep(300);
    const overSsh = (
      await echoPaired([{ type: (k) => sshStream.input(k), received: () => sshBytes, text: () => sshText }])
    ).times[0]!;
    sshStream.detach();
    viaSsh.close();
    echoStream.detach();

    // Throughput, alternating: the remote pane through this core, the same pane on the host's core, plain ssh.
    const remotePane = (await direct.call('run.get', { run: remoteRun.id })).agents.find((a) => a.label === 'pane')!;
    const rounds: { pane: number; onHost: number; plain: number; tty: number; pty: number }[] = [];
    let resets = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const pane = await paneThroughput(client, paneAgent!.id, `L${r}`, bigBytes);
      const onHostPane = await paneThroughput(direct, remotePane.id, `H${r}`, bigBytes);
      resets += pane.resets;
      const catArgs = (extra: string[]) => [...sshArgs('devbox', ssh, extra), `cat "$HOME/bench/big.txt"`];
      const plain = await sshRate(catArgs([]), bigBytes, true);
      // The like-for-like baselines: a PTY there (`ssh -tt`), and a PTY here read by node-pty with no core at all.
      const tty = await sshRate(catArgs(['-tt']), bigBytes, false);
      const ptyRate = await ptyAlone(join(work, 'big.txt'), bigBytes);
      rounds.push({ pane: pane.rate, onHost: onHostPane.rate, plain, tty, pty: ptyRate });
    }
    direct.close();
    const ratios = rounds.map((r) => r.pane / r.plain);
    const paneRate = median(rounds.map((r) => r.pane));
    const plainRate = median(rounds.map((r) => r.plain));
    const ratio = median(ratios);

    const p99 = quantile(remote, 0.99);
    const base = quantile(plain, 0.99);
    const rows = [
      ['metric', 'remote agent', 'plain ssh (same connection)', 'ratio', 'goal'],
      [
        'keystroke echo p99',
        ms(p99),
        ms(base),
        `${fmt(p99 / base, 2)}×`,
        `≤ 1.2× + 5 ms (≤ ${ms(base * 1.2 + 5)}): ${p99 <= base * 1.2 + 5 ? 'met' : 'MISSED'}`,
      ],
      ['keystroke echo p50', ms(quantile(remote, 0.5)), ms(quantile(plain, 0.5)), '', ''],
      ...(remoteB
        ? [
            [
              'host B (switches) echo',
              `p50 ${ms(quantile(remoteB, 0.5))}, p99 ${ms(quantile(remoteB, 0.99))}`,
              '',
              `B/A p99 ${fmt(quantile(remoteB, 0.99) / p99, 2)}×`,
              `A/B: same moments; p90 ${ms(quantile(remoteB, 0.9))} vs A ${ms(quantile(remote, 0.9))}`,
            ],
          ]
        : []),
      [
        'echo on the host itself',
        `p50 ${ms(quantile(onHost, 0.5))}, p99 ${ms(quantile(onHost, 0.99))}`,
        '',
        '',
        'diagnostic: the remote core alone',
      ],
      [
        `throughput (${BIG_MB} MB), median of ${ROUNDS}`,
        // A reset replaced bytes by a screen: the pane fell out of the local ring, the rate is not of byte-exact output.
        `${fmt(paneRate, 1)} MB/s${resets > 0 ? ` (${resets} resets: NOT byte-exact)` : ', byte-exact'}`,
        `${fmt(plainRate, 1)} MB/s`,
        `${fmt(ratio, 2)} (rounds ${ratios.map((x) => fmt(x, 2)).join(', ')})`,
        `≥ 0.8: ${ratio >= 0.8 ? 'met' : 'MISSED'}`,
      ],
      [
        'throughput on the host itself',
        `${rounds.map((r) => fmt(r.onHost, 1)).join(', ')} MB/s`,
        '',
        `${rounds.map((r) => fmt(r.onHost / r.plain, 2)).join(', ')}`,
        'diagnostic: the remote core alone',
      ],
      [
        'ssh -tt host cat bigfile',
        `${rounds.map((r) => fmt(r.tty, 1)).join(', ')} MB/s`,
        '',
        `${rounds.map((r) => fmt(r.pane / r.tty, 2)).join(', ')}`,
        'diagnostic: remote pane vs a PTY there',
      ],
      [
        'ssh -tt host cat bigfile / plain ssh',
        `${rounds.map((r) => fmt(r.tty / r.plain, 2)).join(', ')}`,
        '',
        '',
        "ceiling: OpenSSH's own rate through a PTY, as a share of its pipe",
      ],
      [
        'a PTY alone (node-pty)',
        `${rounds.map((r) => fmt(r.pty, 1)).join(', ')} MB/s`,
        '',
        `${rounds.map((r) => fmt(r.pane / r.pty, 2)).join(', ')}`,
        'diagnostic: remote pane vs no core at all',
      ],
      [
        'remote pane / host alone',
        `${rounds.map((r) => fmt(r.pane / r.onHost, 2)).join(', ')}`,
        '',
        '',
        'diagnostic: what ssh and this core cost',
      ],
    ];
    // Which keystrokes are slow: those typed soon after the previous echo (output within a core's quiet spell is
    // coalesced), or any?
    const split = (times: number[], pauses: number[]) => {
      const soon = times.filter((_, i) => pauses[i]! < QUICK_MS);
      const later = times.filter((_, i) => pauses[i]! >= QUICK_MS);
      const p = (xs: number[]) => (xs.length > 0 ? ms(quantile(xs, 0.99)) : '-');
      return `p99 ${p(soon)} (${soon.length} keys) / ${p(later)} (${later.length})`;
    };
    rows.splice(
      4,
      0,
      ['echo p99 by pause', split(remote, remotePauses), '', '', `keys typed < / ≥ ${QUICK_MS} ms after the last echo`],
      ['… on the host itself', split(onHost, onHostPauses), '', '', 'diagnostic'],
      [
        'host core over ssh',
        `p50 ${ms(quantile(overSsh, 0.5))}, p99 ${ms(quantile(overSsh, 0.99))}`,
        '',
        '',
        'diagnostic: its forwarded socket, not this core',
      ],
    );
    if (ROUNDS === 0) rows.splice(remoteB ? 8 : 7);
    for (const r of rows) console.log(r.map((c, i) => c.padEnd(i === 0 ? 22 : 28)).join(' '));
    console.log(`load at end: ${load()}`);
  } finally {
    await baseChain?.stop();
    await client.call('run.stop', { run: 'bench-ssh' }).catch(() => undefined);
    await client.call('run.stop', { run: 'bench-ssh-local' }).catch(() => undefined);
    client.close();
    server.child.kill('SIGTERM');
    await server.exited;
    // The bench's own remote cores, ended through their own contract.
    await shutdownRemoteCore(sshd.remoteHome);
    if (hostB) await shutdownRemoteCore(hostB.sshd.remoteHome);
    sshd.stop();
    hostB?.sshd.stop();
    // Each host holds a copy of the package (~170 MB): a machine running benches in a loop fills its disk otherwise.
    for (const d of [dir, sshd.dir, hostB?.sshd.dir]) if (d) rmSync(d, { recursive: true, force: true, maxRetries: 3 });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
