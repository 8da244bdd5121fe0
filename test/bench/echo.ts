// Keystroke echo latency: a letter sent with agent.write over the real WebSocket, until the agent's echo
// of it arrives in the client's onData. Measured against a plain request round trip on the same socket,
// and against the echo of the bare PTY (node-pty alone, no core, no WebSocket).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pty from 'node-pty';
import { connect } from '../../electron/cli/connect.js';
import { openCoreHost } from '../../electron/core/host.js';
import { startWebServer } from '../../electron/core/transport/http-server.js';
import { childEnv, SIZE } from './throughput.js';

/** Raw stdin, every byte written straight back; `READY` once set up. */
const ECHO_SCRIPT = `process.stdin.setRawMode(true);
process.stdin.on('data', (d) => process.stdout.write(d));
process.stdout.write('READY');
`;

export interface EchoResult {
  /** agent.write → echoed byte in onData, ms. */
  echo: number[];
  /** agent.resize to the same size → its reply, ms (a no-op request: the WebSocket and RPC cost alone). */
  request: number[];
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const randomLetter = () => LETTERS[Math.floor(Math.random() * LETTERS.length)]!;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** A short, varying pause between keystrokes so each one meets an idle core (and does not phase-lock with timers). */
const pause = () => sleep(1 + Math.random() * 3);

/** Resolves when `predicate` holds for some future output; `feed` is called with every output chunk. */
class Waiter {
  private want: { test: (s: string) => boolean; resolve: (t: number) => void } | null = null;
  private seen = '';
  feed(text: string): void {
    const at = performance.now();
    this.seen += text;
    if (this.want?.test(this.seen)) {
      const w = this.want;
      this.want = null;
      this.seen = '';
      w.resolve(at);
    }
  }
  /** Time (performance.now) at which output satisfying `test` arrived; output already seen counts. */
  next(test: (s: string) => boolean, what: string, timeoutMs = 10_000): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
      this.want = {
        test,
        resolve: (t) => {
          clearTimeout(timer);
          resolve(t);
        },
      };
      this.feed('');
    });
  }
  clear(): void {
    this.seen = '';
  }
}

export async function echoOverWebSocket(iterations: number): Promise<EchoResult> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'baton-bench-')));
  const echoScript = join(dir, 'echo.cjs');
  writeFileSync(echoScript, ECHO_SCRIPT);
  const token = randomBytes(24).toString('hex');
  const core = await openCoreHost({ dataDir: join(dir, 'data'), env: process.env, version: 'bench' });
  const server = await startWebServer({ core, host: '127.0.0.1', port: 0, token, staticDir: dir, fallbackPage: '' });
  const client = await connect({ url: server.url, token });
  try {
    const run = await client.call('run.start', {
      name: 'bench',
      agents: [{ vendor: 'shell', cwd: dir, command: [process.execPath, echoScript] }],
    });
    const agentId = run.agents[0]!.id;
    const waiter = new Waiter();
    const stream = await client.attach(
      agentId,
      { autoAck: true, visible: true },
      {
        onData: (data) => waiter.feed(Buffer.from(data.buffer, data.byteOffset, data.length).toString('latin1')),
        onReset: (screen) => waiter.feed(screen),
      },
    );
    await waiter.next((s) => s.includes('READY'), 'the echo agent to start');
    await sleep(200); // let the spawn's bookkeeping settle

    const echo: number[] = [];
    const request: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const letter = randomLetter();
      waiter.clear();
      const echoed = waiter.next((s) => s.includes(letter), `the echo of '${letter}'`);
      const t0 = performance.now();
      const reply = client.call('agent.write', { agentId, data: letter });
      const t1 = await echoed;
      echo.push(t1 - t0);
      await reply;
      await pause();

      const r0 = performance.now();
      await client.call('agent.resize', { agentId, cols: SIZE.cols, rows: SIZE.rows });
      request.push(performance.now() - r0);
      await pause();
    }
    stream.detach();
    return { echo, request };
  } finally {
    client.close();
    await server.close();
    await core.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The floor: the same echo program on a bare node-pty, write → onData, no core and no WebSocket. */
export async function echoOverRawPty(iterations: number): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-'));
  const echoScript = join(dir, 'echo.cjs');
  writeFileSync(echoScript, ECHO_SCRIPT);
  const p = pty.spawn(process.execPath, [echoScript], {
    name: 'xterm-256color',
    cols: SIZE.cols,
    rows: SIZE.rows,
    cwd: dir,
    env: childEnv(),
    encoding: null,
  });
  const waiter = new Waiter();
  p.onData((d: string | Buffer) => waiter.feed(typeof d === 'string' ? d : d.toString('latin1')));
  const exited = new Promise<void>((r) => p.onExit(() => r()));
  try {
    await waiter.next((s) => s.includes('READY'), 'the raw echo program to start');
    const out: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const letter = randomLetter();
      waiter.clear();
      const echoed = waiter.next((s) => s.includes(letter), `the raw echo of '${letter}'`);
      const t0 = performance.now();
      p.write(letter);
      out.push((await echoed) - t0);
      await pause();
    }
    return out;
  } finally {
    p.kill();
    await Promise.race([exited, sleep(2000)]);
    rmSync(dir, { recursive: true, force: true });
  }
}
