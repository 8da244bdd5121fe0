// `npm run bench:cli`: how long the `baton` command line takes to start and answer, as a user and a vendor's hook run
// it (docs/performance.md "CLI start"), against the bare start of a Node process measured in the same run, the
// commands taken in turn so that a busy machine weighs on each alike. A real background core holds 100 live shell
// agents (4 runs of 25) and one Claude agent (the fake) whose hook environment the hook figures use.
// BATON_BENCH_BEFORE=<another checkout>/bin/baton.js adds that `baton`'s figures, measured in the same run, for a
// before/after. Nothing here asserts a time; the process fails only when a command fails.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { defaultHookLauncher } from '../../electron/core/attention/hook-launcher.js';
import { HOOK_ENV } from '../../shared/hook-wire.js';
import { startCore, stopCore } from '../helpers/core.js';
import { BATON_BIN, ROOT, tempDir, testEnv, waitFor } from '../helpers/server.js';
import { everyPaneLive, startRuns } from './scale-measure.js';
import { fmt, median, quantile } from './stats.js';

const RUNS = 4;
const PER_RUN = 25;
const ROUNDS = Number(process.env.BATON_BENCH_ROUNDS ?? 20);
// The argv the core wires (its launcher), with the hook `npm run build` made.
const HOOK_ARGV = [...defaultHookLauncher().slice(0, -1), join(ROOT, 'dist', 'electron', 'cli', 'hook.cjs')];
const BEFORE = process.env.BATON_BENCH_BEFORE;

interface Probe {
  label: string;
  argv: string[];
  env: Record<string, string>;
  input?: string;
  /** The figure's goal against the bare Node start, when it has one. */
  goal?: { ms?: number; ratio?: number };
}

const CLK_TCK = 100;

/**
 * CPU time (user + system, ms) of this process's children that have ended: the kernel adds a child's to it when the
 * child is reaped. Summed over the rounds, its 10 ms ticks average out to the CPU each command costs, a figure a busy
 * machine disturbs far less than wall time. (The core, a child too, counts only once it ends.)
 */
function endedChildrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'latin1');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLK_TCK;
}

/** Wall time of one process, from spawn to exit (its output read and thrown away). */
function timedRun(p: Probe): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(p.argv[0]!, p.argv.slice(1), {
      env: p.env,
      stdio: [p.input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    if (p.input !== undefined) child.stdin!.end(p.input);
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - t0;
      if (code === 0) resolve(ms);
      else reject(new Error(`${p.label} exited ${String(code)}: ${err.slice(0, 300)}`));
    });
  });
}

/** The hook environment Baton gave an agent (its socket, id and secret), read from the agent's process. */
function hookEnvOf(pid: number): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const kv of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const at = kv.indexOf('=');
    if (Object.values(HOOK_ENV).includes(kv.slice(0, at) as never)) vars[kv.slice(0, at)] = kv.slice(at + 1);
  }
  return vars;
}

async function main(): Promise<void> {
  console.log(
    `Baton CLI start bench  (node ${process.version}, ${availableParallelism()} cores, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, ${ROUNDS} rounds)`,
  );
  const root = tempDir('baton-cli-start-');
  const work = join(root, 'work');
  mkdirSync(work);
  // No NODE_OPTIONS from the caller: every process here starts as a user's would.
  const env = testEnv(join(root, 'home'));
  const core = await startCore(join(root, 'data'), env);
  try {
    const client = await core.connect();
    const runs = await startRuns(client, RUNS, PER_RUN, work);
    await everyPaneLive(
      client,
      runs.flatMap((r) => r.agents.map((a) => a.id)),
    );
    const claude = (await client.call('run.start', { name: 'hooks', agents: [{ vendor: 'claude', cwd: work }] }))
      .agents[0]!;
    await waitFor(() => claude.pid !== null && existsSync(`/proc/${claude.pid}`), 'the Claude agent', 10_000);
    const hookEnv = { PATH: env.PATH!, ...hookEnvOf(claude.pid!) };
    client.close();

    const node = process.execPath;
    const at = ['--data-dir', core.dataDir];
    const report = JSON.stringify({
      hook_event_name: 'Notification',
      message: 'ask',
      notification_type: 'permission_prompt',
    });
    const probes: Probe[] = [
      { label: 'node -e 0 (baseline)', argv: [node, '-e', '0'], env: {} },
      { label: 'baton help', argv: [node, BATON_BIN, 'help'], env },
      { label: 'baton --version', argv: [node, BATON_BIN, '--version'], env },
      {
        label: `baton ls --json (${RUNS * PER_RUN + 1} live)`,
        argv: [node, BATON_BIN, 'ls', '--json', ...at],
        env,
        goal: { ms: 100 },
      },
      {
        label: "a vendor's hook (hook.cjs claude)",
        argv: [...HOOK_ARGV, 'claude'],
        env: hookEnv,
        input: report,
        goal: { ratio: 2 },
      },
      { label: 'baton hook claude', argv: [node, BATON_BIN, 'hook', 'claude'], env: hookEnv, input: report },
    ];
    // A user whose environment names extra CA certificates (as this machine's does): the agent's hook inherits it.
    const certs = process.env.NODE_EXTRA_CA_CERTS;
    if (certs)
      probes.push(
        {
          label: 'the hook, NODE_EXTRA_CA_CERTS in its env',
          argv: [...HOOK_ARGV, 'claude'],
          env: { ...hookEnv, NODE_EXTRA_CA_CERTS: certs },
          input: report,
        },
        {
          label: '  the same as plain `node hook.cjs`',
          argv: [node, HOOK_ARGV.at(-1)!, 'claude'],
          env: { ...hookEnv, NODE_EXTRA_CA_CERTS: certs },
          input: report,
        },
      );
    if (BEFORE)
      probes.push(
        { label: 'before: baton help', argv: [node, BEFORE, 'help'], env },
        { label: `before: baton ls --json`, argv: [node, BEFORE, 'ls', '--json', ...at], env },
        {
          label: 'before: hook-main.js claude',
          argv: [node, join(BEFORE, '..', '..', 'dist', 'electron', 'cli', 'hook-main.js'), 'claude'],
          env: hookEnv,
          input: report,
        },
      );
    // One untimed round (the page cache, the core's first answers), then the rounds, each probe in turn.
    for (const p of probes) await timedRun(p);
    const times = probes.map(() => [] as number[]);
    const cpu = probes.map(() => 0);
    for (let r = 0; r < ROUNDS; r++)
      for (const [i, p] of probes.entries()) {
        const before = endedChildrenCpuMs();
        times[i]!.push(await timedRun(p));
        cpu[i]! += endedChildrenCpuMs() - before;
      }

    const floor = median(times[0]!);
    const floorCpu = cpu[0]! / ROUNDS;
    console.log(
      `\n${'command (a new process each time)'.padEnd(44)}${'wall p50'.padStart(9)}${'p90'.padStart(9)}  × node p50${'CPU'.padStart(9)}  × node   goal`,
    );
    for (const [i, p] of probes.entries()) {
      const p50 = median(times[i]!);
      const p90 = quantile(times[i]!, 0.9);
      const cpuMs = cpu[i]! / ROUNDS;
      const goal = p.goal?.ms
        ? `≤ ${p.goal.ms} ms ${p50 <= p.goal.ms ? '✓' : '✗'}`
        : p.goal?.ratio
          ? `≤ ${p.goal.ratio}× ${p50 / floor <= p.goal.ratio ? '✓' : '✗'}`
          : '';
      console.log(
        `${p.label.padEnd(44)}${`${fmt(p50, 1)} ms`.padStart(9)}${`${fmt(p90, 1)} ms`.padStart(9)}  ${`${fmt(p50 / floor, 2)}×`.padStart(9)}${`${fmt(cpuMs, 1)} ms`.padStart(9)}  ${`${fmt(cpuMs / floorCpu, 2)}×`.padStart(6)}   ${goal}`,
      );
    }
  } finally {
    await stopCore(core);
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
