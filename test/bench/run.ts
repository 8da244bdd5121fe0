// `npm run bench`: throughput and keystroke latency of the core, each read against a baseline measured in the
// same run on the same machine (shared machines are noisy: the ratios mean something, the absolute figures less).
// Nothing here asserts a time; the process fails only when output is not byte-exact or a measurement breaks.
import { availableParallelism, cpus, loadavg } from 'node:os';
import { FLOW } from '../../electron/core/pty/flow.js';
import { echoOverRawPty, echoOverWebSocket } from './echo.js';
import { mirrorParse } from './mirror-parse.js';
import { fmt, max, mbps, median, ms, quantile } from './stats.js';
import { rawPty, viaPtyHost, type ThroughputSample } from './throughput.js';

const ROUNDS = 3;
const ECHO_ITERATIONS = 500;
const THROUGHPUT_GOAL = 0.8;
const ECHO_P99_GOAL_MS = 5;
/** Size the throughput workload so one baseline measurement takes about this long (within [64, 256] MiB). */
const TARGET_BASELINE_MS = 1200;
const WARMUP_MIB = 16;

const LABEL = 50;
const line = (label: string, rest: string) => console.log(`${label.padEnd(LABEL)}${rest}`);
const rate = (s: ThroughputSample) => mbps(s.bytes, s.ms);
const list = (values: number[]) => values.map((v) => fmt(v)).join(' / ');

async function main(): Promise<void> {
  const cpu = cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  console.log(
    `Baton bench  (node ${process.version}, ${availableParallelism()} cores, ${cpu}, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );

  // ---- throughput ----
  // Warm up both paths (JIT, xterm's parser), and size the workload from the baseline's warm-up rate.
  const warm = await rawPty(WARMUP_MIB);
  await viaPtyHost(WARMUP_MIB);
  const sized = Math.round((rate(warm) * 1e6 * (TARGET_BASELINE_MS / 1000)) / (1 << 20) / 16) * 16;
  const mib = Math.min(256, Math.max(64, sized));
  console.log(
    `(workload: ${mib} MiB of printable bytes, no newlines, 64 KiB writes, ${ROUNDS} rounds alternating baseline / PtyHost)`,
  );

  const raw: ThroughputSample[] = [];
  const host: ThroughputSample[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    raw.push(await rawPty(mib));
    host.push(await viaPtyHost(mib));
  }
  const rawRate = median(raw.map(rate));
  const hostRate = median(host.map(rate));
  const ratio = hostRate / rawRate;
  const exact = host.every((s) => s.exact);
  line('raw node-pty throughput (baseline)', `${fmt(rawRate).padStart(5)} MB/s   (runs ${list(raw.map(rate))})`);
  line(
    'PtyHost + mirror throughput',
    `${fmt(hostRate).padStart(5)} MB/s   ratio ${fmt(ratio, 2)}  (goal ≥ ${fmt(THROUGHPUT_GOAL, 2)})  ${exact ? 'byte-exact ✓' : 'NOT byte-exact ✗'}   (runs ${list(host.map(rate))})`,
  );
  const describe = (s: ThroughputSample) =>
    s.lost > 0 ? `the last ${s.lost} bytes never arrived (dropped by node-pty at exit)` : 'offsets or content differ';
  for (const [i, s] of raw.entries())
    if (!s.exact) console.log(`  ! baseline run ${i + 1} was not byte-exact: ${describe(s)}`);
  for (const [i, s] of host.entries())
    if (!s.exact) console.log(`  ! PtyHost run ${i + 1} was not byte-exact: ${describe(s)}`);
  if (!exact) process.exitCode = 1;
  const avgChunk = (s: ThroughputSample[]) => median(s.map((x) => x.bytes / Math.max(1, x.chunks)));
  console.log(`  (mean PTY read ${fmt(avgChunk(raw))} B; mean PtyHost frame ${fmt(avgChunk(host))} B)`);

  if (ratio < THROUGHPUT_GOAL) {
    // Why: the mirror (a headless xterm) parses every byte on the same thread that reads the PTY.
    const parse: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const r = await mirrorParse(mib);
      parse.push(mbps(r.bytes, r.ms));
    }
    const parseRate = median(parse);
    const serial = 1 / (1 / rawRate + 1 / parseRate);
    line(
      '  why: mirror parse alone (same bytes, 4 KiB)',
      `${fmt(parseRate).padStart(5)} MB/s   = ${fmt(parseRate / rawRate, 2)} × baseline   (runs ${list(parse)})`,
    );
    line(
      '       serial model 1/(1/raw + 1/parse)',
      `${fmt(serial).padStart(5)} MB/s   = ${fmt(serial / rawRate, 2)} × baseline   (measured PtyHost: ${fmt(ratio, 2)})`,
    );
  }

  // ---- keystroke echo ----
  const ws = await echoOverWebSocket(ECHO_ITERATIONS);
  const bare = await echoOverRawPty(ECHO_ITERATIONS);
  const p50 = quantile(ws.echo, 0.5);
  const p99 = quantile(ws.echo, 0.99);
  const request50 = quantile(ws.request, 0.5);
  const bare50 = quantile(bare, 0.5);
  const spread = (v: number[]) => `p50 ${ms(quantile(v, 0.5))}  p99 ${ms(quantile(v, 0.99))}  max ${ms(max(v))}`;
  line(
    'keystroke echo over WebSocket',
    `${spread(ws.echo)}  (goal p99 ≤ ${ECHO_P99_GOAL_MS} ms)  ${p99 <= ECHO_P99_GOAL_MS ? '✓' : '✗'}  n=${ws.echo.length}`,
  );
  line('  plain request round trip (agent.resize, no-op)', spread(ws.request));
  line('  bare PTY echo (node-pty alone, no core/socket)', spread(bare));
  line(
    '  echo p50 − request p50 − bare echo p50',
    `${ms(p50 - request50 - bare50)}   (output coalescing timer: FLOW.coalesceMs = ${FLOW.coalesceMs} ms)`,
  );
}

main().catch((err: unknown) => {
  console.error(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
