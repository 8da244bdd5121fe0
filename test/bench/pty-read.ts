// How fast a PTY can be read on this machine, by node-pty and by OpenSSH (issue 14: a remote pane against
// `ssh host cat bigfile`). The same file is `cat` in a PTY, its output discarded as fast as it comes, in interleaved
// rounds: node-pty alone (no core), a read loop in C-speed Python (`os.read`, no JavaScript), `ssh -tt host cat` (sshd
// reads the PTY on the host and the client writes it to a pipe read here), and plain `ssh -T host cat` (no PTY: the
// goal's baseline). Each rate is against node-pty's in the same round; the mean read size says whether a reader gets
// less per read than another. Needs sshd (test/helpers/sshd.ts). Run: npx tsx test/bench/pty-read.ts (MB=32, ROUNDS=5)
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import pty from 'node-pty';
import { sshArgs } from '../../electron/core/remote/ssh.js';
import { startSshd } from '../helpers/sshd.js';
import { tempDir } from '../helpers/server.js';
import { describeSpread, spreadOf } from './throughput-pairs.js';
import { fmt, mbps, median } from './stats.js';

const MB = Number(process.env.MB ?? 32);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

interface Read {
  rate: number;
  /** Bytes per read as the reader saw them (node-pty's data events, Python's os.read), when known. */
  perRead?: number;
  /** CPU ms per MB of the reading process (this one's main thread for node-pty), when known. */
  cpuPerMb?: number;
}

/** node-pty reading `cat file`, every chunk discarded: what the core's read loop starts from. */
async function nodePty(file: string, bytes: number): Promise<Read> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let reads = 0;
  let got = 0;
  await new Promise<void>((resolve) => {
    const p = pty.spawn('/bin/cat', [file], { cols: 120, rows: 40, encoding: null });
    p.onData((d: string | Buffer) => {
      reads++;
      got += d.length;
    });
    p.onExit(() => resolve());
  });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { rate: mbps(bytes, ms), perRead: got / reads, cpuPerMb: (cpu.user + cpu.system) / 1000 / (bytes / 1e6) };
}

/** The same PTY read by Python's os.read (64 KiB asked) in its own process: a read loop with no JavaScript. */
const PY_READER = [
  'import os, pty, sys, time, resource',
  'pid, fd = pty.fork()',
  'if pid == 0:',
  '    os.execv("/bin/cat", ["cat", sys.argv[1]])',
  'n = reads = 0',
  'while True:',
  '    try:',
  '        b = os.read(fd, 65536)',
  '    except OSError:',
  '        break',
  '    if not b:',
  '        break',
  '    n += len(b); reads += 1',
  'os.waitpid(pid, 0)',
  'r = resource.getrusage(resource.RUSAGE_SELF)',
  'print(n, reads, (r.ru_utime + r.ru_stime) * 1000)',
].join('\n');

async function python(file: string, bytes: number): Promise<Read> {
  const t0 = performance.now();
  const out = await run('python3', ['-c', PY_READER, file]);
  const ms = performance.now() - t0;
  const [n, reads, cpuMs] = out.trim().split(' ').map(Number) as [number, number, number];
  return { rate: mbps(bytes, ms), perRead: n / reads, cpuPerMb: cpuMs / (bytes / 1e6) };
}

/** `ssh <args>`, its output read and discarded here: MB/s of `bytes` (a PTY there turns \n into \r\n: more bytes). */
async function ssh(args: string[], bytes: number): Promise<Read> {
  const t0 = performance.now();
  const child = spawn('ssh', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let got = 0;
  child.stdout.on('data', (d: Buffer) => (got += d.length));
  await new Promise((r) => child.once('close', r));
  if (got < bytes) throw new Error(`ssh ${args.at(-1)} gave ${got} bytes, expected ${bytes}`);
  return { rate: mbps(bytes, performance.now() - t0) };
}

function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${file} exited ${code}`))));
  });
}

async function main(): Promise<void> {
  const sshd = await startSshd();
  const dir = tempDir('baton-bench-pty-read-');
  try {
    const work = join(sshd.remoteHome, 'bench');
    mkdirSync(work, { mode: 0o700 });
    const line = `${'0123456789abcdefghijklmnopqrstuvwxyz'.repeat(2)}\n`;
    const file = join(work, 'big.txt');
    writeFileSync(file, line.repeat(Math.ceil((MB * 1e6) / line.length)));
    const bytes = Math.ceil((MB * 1e6) / line.length) * line.length;
    const opts = { controlDir: dir, configFile: sshd.configFile };
    const cat = (extra: string[]) => [...sshArgs('devbox', opts, extra), `cat "$HOME/bench/big.txt"`];
    const who: [string, () => Promise<Read>][] = [
      ['node-pty (no core)', () => nodePty(file, bytes)],
      ['python os.read on a PTY', () => python(file, bytes)],
      ['ssh -tt host cat (a PTY there)', () => ssh(cat(['-tt']), bytes)],
      ['ssh -T host cat (no PTY)', () => ssh(cat([]), bytes)],
    ];
    await ssh(cat([]), bytes); // the shared connection, opened before anything is timed
    for (const [, measure] of who) await measure();
    const results = new Map<string, Read[]>(who.map(([name]) => [name, []]));
    for (let r = 0; r < ROUNDS; r++)
      for (let k = 0; k < who.length; k++) {
        const [name, measure] = who[(r + k) % who.length]!;
        results.get(name)!.push(await measure());
      }
    const base = results.get(who[0]![0])!;
    console.log(`A PTY read, ${MB} MB of 73-byte lines, ${ROUNDS} interleaved rounds (load ${loadAvg()})`);
    for (const [name, reads] of results) {
      const ratio = describeSpread(spreadOf(reads.map((x, i) => x.rate / base[i]!.rate)));
      const perRead = reads[0]?.perRead === undefined ? '' : `, ${fmt(median(reads.map((x) => x.perRead!)))} B a read`;
      const cpu =
        reads[0]?.cpuPerMb === undefined ? '' : `, reader CPU ${fmt(median(reads.map((x) => x.cpuPerMb!)), 2)} ms/MB`;
      console.log(
        `  ${name.padEnd(32)} ${fmt(median(reads.map((x) => x.rate))).padStart(5)} MB/s  ` +
          `× node-pty ${ratio}${perRead}${cpu}`,
      );
    }
    console.log(`(load ${loadAvg()} at the end)`);
  } finally {
    sshd.stop();
    // Its 32 MB file and the server's keys: nothing of a bench run is left in /tmp.
    rmSync(sshd.dir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

const loadAvg = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

main().then(
  () => process.exit(),
  (err: unknown) => {
    console.error(`pty-read bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
