// What test/bench/ssh.ts measures, one function a measure: keystroke echo timed in blocks shared between targets,
// a PTY's throughput with no core, plain ssh's rate, and a pane's throughput through a core (docs/hosts.md).
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import pty from 'node-pty';
import { join } from 'node:path';
import type { RpcClient } from '../../shared/client.js';
import { waitFor } from '../helpers/server.js';
import { mbps } from './stats.js';

/** Keys per target: BATON_BENCH_KEYS=n for a steadier p99 (the default's p99 is its 3rd-slowest key). */
const KEYS = Number(process.env.BATON_BENCH_KEYS ?? 300);
export const BIG_MB = 32;
/** BATON_BENCH_ECHO_ONLY=1: the echo figures only (no throughput rounds). */
export const ROUNDS = process.env.BATON_BENCH_ECHO_ONLY ? 0 : 3;
const PROFILE_DIR = process.env.BATON_BENCH_PROFILE;
export const profileEnv = (name: string): Record<string, string> =>
  PROFILE_DIR
    ? {
        NODE_OPTIONS: `--require=${join(import.meta.dirname, 'cpu-profile-preload.cjs')}`,
        BATON_PROFILE_DIR: join(PROFILE_DIR, name),
      }
    : {};
export const ECHO = `process.stdin.setRawMode(true); process.stdin.on('data', (d) => process.stdout.write(d)); process.stdout.write('READY');`;
export const sleep = (t: number) => new Promise<void>((r) => setTimeout(r, t));
export const QUICK_MS = 2;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Where keys are typed and their echo read: the text received so far grows. */
export interface EchoTarget {
  type: (key: string) => void;
  received: () => number;
  text: () => string;
}

/**
 * BATON_BENCH_KEY_LOG=<file>: each key's target (its index in echoPaired's list) and the CLOCK_MONOTONIC nanoseconds
 * it was typed and its echo seen, one JSON line each, for ssh-hops.ts to lay a scheduler trace over.
 */
const KEY_LOG = process.env.BATON_BENCH_KEY_LOG;

/**
 * How the key loop waits for an echo: asleep until a target's data arrives (`event`, the default: as a page or a
 * terminal waits for its socket), or by polling on every turn of the event loop (BATON_BENCH_WAIT=spin, the bench of
 * stops before 23: this process then keeps a CPU busy while it waits, and on 2 CPUs takes one from the processes on the
 * path, the remote agent's longer chain the most).
 */
export const WAIT_EVENT = process.env.BATON_BENCH_WAIT !== 'spin';
let arrived: (() => void) | null = null;

/** Every target's data handler calls this: it wakes the key loop when it waits for events. */
export function dataArrived(): void {
  const wake = arrived;
  arrived = null;
  wake?.();
}

/** Keys typed in a row into one target before the next takes its turn (see echoPaired). */
const BLOCK = 10;

/**
 * Time for each keystroke until its echo is seen, KEYS per target. With several targets the keys go in blocks of
 * BLOCK to each in turn: the goal's two sides then share the machine's load of the same moments (a noisy machine's
 * p99 is its scheduling), while keys within a block still follow each other as quickly as a typist's.
 */
export async function echoPaired(targets: EchoTarget[]): Promise<{ times: number[][]; pauses: number[][] }> {
  const times = targets.map((): number[] => []);
  const pauses = targets.map((): number[] => []);
  const seenAt = targets.map(() => -Infinity);
  const keyLog: { target: number; t0: string; t1: string }[] | null = KEY_LOG ? [] : null;
  for (let start = 0; start < KEYS; start += BLOCK) {
    // Each block starts with the next target: none is always typed right after another's block (the A/B's fairness).
    const shift = (start / BLOCK) % targets.length;
    for (const t of [...targets.keys()].map((i) => (i + shift) % targets.length)) {
      const target = targets[t]!;
      for (let i = start; i < Math.min(KEYS, start + BLOCK); i++) {
        const key = LETTERS[i % LETTERS.length]!;
        const before = target.received();
        const t0 = performance.now();
        const mono0 = process.hrtime.bigint();
        pauses[t]!.push(t0 - seenAt[t]!);
        target.type(key);
        while (!(target.received() > before && target.text().endsWith(key)))
          await new Promise<void>((r) => (WAIT_EVENT ? (arrived = r) : setImmediate(r)));
        seenAt[t] = performance.now();
        times[t]!.push(seenAt[t]! - t0);
        keyLog?.push({ target: t, t0: String(mono0), t1: String(process.hrtime.bigint()) });
        await sleep(1 + Math.random() * 3);
      }
    }
  }
  if (keyLog) appendFileSync(KEY_LOG!, keyLog.map((k) => `${JSON.stringify(k)}\n`).join(''));
  return { times, pauses };
}

/** A PTY read with node-pty in this process, no core: `cat` of the file, bytes counted until it exits. */
export async function ptyAlone(file: string, bytes: number): Promise<number> {
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    const p = pty.spawn('/bin/cat', [file], { cols: 120, rows: 40, encoding: null });
    p.onData(() => undefined);
    p.onExit(() => resolve());
  });
  return mbps(bytes, performance.now() - t0);
}

/** `ssh host <command>`, all its output read: MB/s of `bytes`. */
export async function sshRate(args: string[], bytes: number, exact: boolean): Promise<number> {
  const t0 = performance.now();
  const child = spawn('ssh', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let got = 0;
  child.stdout.on('data', (d: Buffer) => (got += d.length));
  await new Promise((r) => child.once('close', r));
  // With a PTY there, each \n arrives as \r\n.
  if (exact ? got !== bytes : got < bytes) throw new Error(`ssh ${args.at(-1)} gave ${got} bytes, expected ${bytes}`);
  return mbps(bytes, performance.now() - t0);
}

/** `cat big.txt` in a pane until its end mark reaches `client`: MB/s, and how many resets the pane got. */
export async function paneThroughput(
  client: RpcClient,
  agentId: string,
  round: string,
  bytes: number,
  /** The file to `cat` (the pane's own directory's big.txt by default). */
  file = 'big.txt',
): Promise<{ rate: number; resets: number }> {
  let tail = '';
  let done = false;
  /** When the end mark arrived (the poll below only notices it up to 100 ms later). */
  let doneAt = 0;
  // A reset means the pane fell out of the ring (its bytes were replaced by a screen): flow control failed.
  let resets = 0;
  let sent = false;
  const mark = `END-OF-BIG-${round}-42`;
  const stream = await client.attach(
    agentId,
    { fromOffset: 0, autoAck: true },
    {
      onData: (d) => {
        // Only the frame's end is looked at: decoding all of every frame cost this reader more than the core's own.
        tail = (tail + Buffer.from(d.buffer, d.byteOffset, d.byteLength).subarray(-64).toString('latin1')).slice(-64);
        if (!done && tail.includes(mark)) [done, doneAt] = [true, performance.now()];
      },
      onReset: (screen) => {
        // The attach itself starts from a screen once earlier rounds left the ring: only later ones count.
        if (sent) resets++;
        if (!done && screen.includes(mark)) [done, doneAt] = [true, performance.now()];
      },
    },
  );
  await sleep(500);
  sent = true;
  const t0 = performance.now();
  stream.input(`cat ${file}; echo END-OF-BIG-${round}-$((40+2))\r`);
  await waitFor(() => done, 'the pane to show all of big.txt', 300_000);
  const rate = mbps(bytes, doneAt - t0);
  stream.detach();
  return { rate, resets };
}

/**
 * Attaches to `agentId`'s echo agent and waits for its READY (`ready`; else for the replay to settle): a target for
 * echoPaired, and how to let it go.
 */
export async function echoTarget(
  client: RpcClient,
  agentId: string,
  what: string,
  ready = true,
): Promise<{ target: EchoTarget; detach(): void }> {
  let text = '';
  let bytes = 0;
  const stream = await client.attach(
    agentId,
    { fromOffset: 0, autoAck: true },
    {
      onData: (d) => {
        text = (text + Buffer.from(d).toString('latin1')).slice(-64);
        bytes += d.length;
        dataArrived();
      },
      onReset: () => undefined,
    },
  );
  // An agent typed into before has more than its READY in the replay (which the text's last 64 characters miss).
  if (ready) await waitFor(() => text.includes('READY'), what, 60_000);
  else await sleep(300);
  return {
    target: { type: (k) => stream.input(k), received: () => bytes, text: () => text },
    detach: () => stream.detach(),
  };
}
