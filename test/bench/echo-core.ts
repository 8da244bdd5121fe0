// Keystroke echo of one background core (`baton serve --socket`, its own process, as the core on a remote host is),
// keys sent as a pane's are (input frames on the attached stream), against a bare node-pty echo in this process. Keys
// alternate between them one by one, so both meet the same machine load. This isolates the core's own echo path
// (docs/performance.md, "Echo of one core"). With BATON_BENCH_BASE=<dir of another build's bin/baton.js>, that
// build's core is typed into in the same rotation: an A/B of two builds in one run.
// Needs a build (`npm run build`). Run: npx tsx test/bench/echo-core.ts [keys]
// BATON_BENCH_NODE_OPTIONS: NODE_OPTIONS for the cores (a diagnostic preload, say; BATON_PROFILE_DIR and LOOP_*
// variables are passed on to them). BATON_BENCH_LEDGER=1: this build's keys go numbered through an input ledger, as a
// remote agent's host core receives them from the local core (remote-terminal.ts). BATON_BENCH_B="BATON_X=v,…": a
// second core of this build with those switches, in the same rotation. BATON_BENCH_TIMES=<file>: raw times for
// echo-pool.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pty from 'node-pty';
import type { RpcClient } from '../../shared/client.js';
import { connect } from '../../electron/cli/connect.js';
import { BATON_BIN, tempDir, testEnv, waitFor } from '../helpers/server.js';
import { InputLedger } from '../../shared/input-ledger.js';
import { fmt, ms, quantile, saveTimes } from './stats.js';
import { switchesOf } from './ssh-host-b.js';

const KEYS = Number(process.argv[2] ?? 400);
const ECHO = `process.stdin.setRawMode(true); process.stdin.on('data', (d) => process.stdout.write(d)); process.stdout.write('READY');`;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const sleep = (t: number) => new Promise<void>((r) => setTimeout(r, t));
/**
 * The pause after each echo before the next key: 1–4 ms by default (each key meets an idle core and no timer phase);
 * BATON_BENCH_PAUSE=fast types the next key as soon as the echo is seen (within a core's quiet spell after a send).
 */
const FAST = process.env.BATON_BENCH_PAUSE === 'fast';
const BURST = 4;
const pause = () => (FAST ? new Promise((r) => setImmediate(r)) : sleep(1 + Math.random() * 3));

/** Something to type into whose output is watched. */
interface Echoer {
  name: string;
  type(key: string): void;
  bytes(): number;
  text(): string;
}

async function timeKey(e: Echoer, key: string): Promise<number> {
  const before = e.bytes();
  const t0 = performance.now();
  e.type(key);
  while (!(e.bytes() > before && e.text().endsWith(key))) await new Promise((r) => setImmediate(r));
  return performance.now() - t0;
}

interface Core {
  child: ChildProcess;
  client: RpcClient;
  echoer: Echoer;
}

/** A core of the build at `bin`, with one raw-echo agent attached as a pane would be. */
async function startCore(
  name: string,
  bin: string,
  dir: string,
  env: Record<string, string>,
  ledger = false,
): Promise<Core> {
  const dataDir = join(dir, name);
  const child = spawn(process.execPath, [bin, 'serve', '--socket', '--data-dir', dataDir], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const info = await waitFor(
    () => JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { socket: string; token: string },
    `the ${name} core to start`,
    60_000,
  );
  const client = await connect(info);
  const run = await client.call('run.start', {
    name: 'echo-core',
    agents: [{ vendor: 'shell', label: 'echo', cwd: dir, command: [process.execPath, '-e', ECHO] }],
  });
  let text = '';
  let bytes = 0;
  const stream = await client.attach(
    run.agents[0]!.id,
    {
      fromOffset: 0,
      autoAck: true,
      ...(ledger ? { input: new InputLedger((m) => console.error(`${name}: ${m}`)) } : {}),
    },
    {
      onData: (d) => {
        text = (text + Buffer.from(d).toString('latin1')).slice(-64);
        bytes += d.length;
      },
      onReset: () => undefined,
    },
  );
  await waitFor(() => text.includes('READY'), `the ${name} core's echo agent`, 60_000);
  return { child, client, echoer: { name, type: (k) => stream.input(k), bytes: () => bytes, text: () => text } };
}

async function main(): Promise<void> {
  const dir = tempDir('baton-bench-echo-core-');
  const plainEnv = testEnv(join(dir, 'home'));
  const extra = process.env.BATON_BENCH_NODE_OPTIONS;
  // A diagnostic preload's own settings go with it.
  const passed = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => /^(BATON_PROFILE_DIR|LOOP_\w+)$/.test(e[0])),
  );
  const env = { ...plainEnv, ...passed, ...(extra ? { NODE_OPTIONS: extra } : {}) };
  const base = process.env.BATON_BENCH_BASE;
  const cores: Core[] = [];
  const raw = pty.spawn(process.execPath, ['-e', ECHO], { cols: 120, rows: 40, encoding: null, env: plainEnv });
  let rawText = '';
  let rawBytes = 0;
  raw.onData((d: string | Buffer) => {
    rawText = (rawText + (typeof d === 'string' ? d : d.toString('latin1'))).slice(-64);
    rawBytes += d.length;
  });
  try {
    const ledger = process.env.BATON_BENCH_LEDGER === '1';
    cores.push(await startCore('this build', BATON_BIN, dir, env, ledger));
    const switchesB = switchesOf('BATON_BENCH_B');
    if (switchesB) cores.push(await startCore('B (switches)', BATON_BIN, dir, { ...env, ...switchesB }, ledger));
    if (base) cores.push(await startCore('base build', join(base, 'bin', 'baton.js'), dir, env));
    await waitFor(() => rawText.includes('READY'), 'the bare echo program', 60_000);
    await sleep(1500); // past the spawns' settling passes
    const echoers: Echoer[] = [
      ...cores.map((c) => c.echoer),
      { name: 'bare node-pty', type: (k) => raw.write(k), bytes: () => rawBytes, text: () => rawText },
    ];
    const times = echoers.map(() => [] as number[]);
    for (let i = 0; i < KEYS / BURST; i++) {
      const key = LETTERS[i % LETTERS.length]!;
      for (const [j, e] of echoers.entries()) {
        // A burst into the same terminal, as a user types: each key follows that terminal's previous echo closely.
        for (let k = 0; k < BURST; k++) {
          times[j]!.push(await timeKey(e, key));
          await pause();
        }
      }
    }
    const bare = times.at(-1)!;
    for (const [j, e] of echoers.entries()) {
      const xs = times[j]!;
      const q = (p: number) => ms(quantile(xs, p));
      const ratio = j === echoers.length - 1 ? '' : `  p99 ${fmt(quantile(xs, 0.99) / quantile(bare, 0.99), 2)}× bare`;
      console.log(
        `${e.name.padEnd(14)} p50 ${q(0.5)}  p90 ${q(0.9)}  p99 ${q(0.99)}  max ${ms(Math.max(...xs))}${ratio}`,
      );
    }
    console.log(`${KEYS} keys each, alternating${FAST ? ', each typed as soon as the last echo was seen' : ''}`);
    if (switchesB) console.log(`B: ${JSON.stringify(switchesB)}${ledger ? '; numbered input (ledger)' : ''}`);
    saveTimes('echo-core', Object.fromEntries(echoers.map((e, j) => [e.name, times[j]!])));
  } finally {
    raw.kill();
    for (const c of cores) {
      await c.client.call('core.shutdown', { resumeOnStart: false }).catch(() => undefined);
      c.client.close();
    }
    await sleep(500);
    for (const c of cores) if (c.child.exitCode === null) c.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
