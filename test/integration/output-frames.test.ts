// Terminal bytes as bytes, end to end, through a real `baton serve` and real PTYs: output in binary frames arrives
// byte-exact (multi-byte UTF-8 never split across frames), keystrokes go as input frames (a surrogate pair at a piece
// boundary included), and a pane hidden while its agent prints is kept current at a low rate (a flood is not sent to
// it), then shown it equals exactly what the core's mirror shows, from its offset or, far behind, from the mirror's screen.
import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Terminal } from '@xterm/headless';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOW } from '../../electron/core/pty/flow.js';
import type { RpcClient } from '../../shared/client.js';
import { startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';

// `L<n>` + Ctrl-D prints n numbered lines of 2-, 3- and 4-byte characters; `H<text>` + Ctrl-D prints the SHA-256 of
// the text as it arrived. Raw mode: no echo, so the stream carries exactly what the program writes (LF → CRLF).
const AGENT = `process.stdin.setRawMode(true);
let input = Buffer.alloc(0);
process.stdin.on('data', (d) => {
  input = Buffer.concat([input, d]);
  for (let k; (k = input.indexOf(4)) >= 0; ) {
    const cmd = input.subarray(0, k);
    input = input.subarray(k + 1);
    if (cmd[0] === 0x4c) {
      const n = +cmd.subarray(1).toString();
      let out = '';
      for (let i = 0; i < n; i++) out += line(i) + '\\n';
      process.stdout.write(out);
    } else if (cmd[0] === 0x48) {
      process.stdout.write('sha ' + require('crypto').createHash('sha256').update(cmd.subarray(1)).digest('hex') + '\\n');
    }
  }
});
function line(i) { return 'line ' + i + ' é日本語😀 ' + 'ü'.repeat(i % 7) + '€'.repeat(i % 5); }
process.stdout.write('frames ready\\n');
`;
const line = (i: number) => `line ${i} é日本語😀 ${'ü'.repeat(i % 7)}${'€'.repeat(i % 5)}`;
const expectedOutput = (n: number) =>
  Buffer.from(Array.from({ length: n }, (_, i) => `${line(i)}\r\n`).join(''), 'utf8');

let root: string;
let server: ServerProcess;
let client: RpcClient;
let script: string;

beforeAll(async () => {
  root = realpathSync(tempDir('baton-frames-'));
  mkdirSync(join(root, 'work'));
  script = join(root, 'work', 'frames.cjs');
  writeFileSync(script, AGENT);
  server = await startServer(join(root, 'data'), testEnv(join(root, 'home')));
  client = await server.connect();
});

afterAll(async () => {
  client?.close();
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  if (root) rmSync(root, { recursive: true, force: true });
});

async function startAgent(name: string): Promise<string> {
  const run = await client.call('run.start', {
    name,
    agents: [{ vendor: 'shell', label: 'frames', cwd: join(root, 'work'), command: [process.execPath, script] }],
  });
  const agentId = run.agents[0]!.id;
  await waitFor(
    async () => (await client.call('agent.screen', { agentId })).text.includes('frames ready'),
    'the agent',
  );
  return agentId;
}

/** The last `n` non-empty lines of a text. */
const tail = (text: string, n: number) =>
  text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '')
    .slice(-n);

function screenText(term: Terminal): string {
  const buffer = term.buffer.active;
  const rows: string[] = [];
  for (let y = 0; y < buffer.length; y++) rows.push(buffer.getLine(y)?.translateToString(true) ?? '');
  return rows.join('\n');
}

describe('binary frames', () => {
  it('output arrives byte-exact, each frame whole UTF-8; typed text arrives exact, split into input frames', async () => {
    const agentId = await startAgent('frames-exact');
    const frames: Buffer[] = [];
    let start = -1;
    const stream = await client.attach(
      agentId,
      { autoAck: true, visible: true },
      {
        onData: (data, offset) => {
          if (start < 0) start = offset;
          frames.push(Buffer.from(data));
        },
        onReset: () => undefined,
      },
    );
    const n = 6000;
    const expected = expectedOutput(n);
    stream.input(`L${n}\x04`);
    await waitFor(() => Buffer.concat(frames).length >= expected.length, 'all the output', 30_000);
    const got = Buffer.concat(frames);
    expect(got.length).toBe(expected.length);
    expect(got.equals(expected)).toBe(true);
    expect(frames.length).toBeGreaterThan(1);
    const strict = new TextDecoder('utf-8', { fatal: true });
    for (const frame of frames) expect(() => strict.decode(frame)).not.toThrow();

    // 16,383 units, then a surrogate pair across the 16 Ki-unit piece boundary, then more multi-byte text.
    const typed = `${'x'.repeat(16_383)}😀${'é日'.repeat(3000)}`;
    frames.length = 0;
    stream.input(`H${typed}\x04`);
    const sha = createHash('sha256').update(Buffer.from(typed, 'utf8')).digest('hex');
    await waitFor(() => Buffer.concat(frames).toString().includes('sha '), 'the hash of the typed text', 20_000);
    expect(Buffer.concat(frames).toString()).toContain(`sha ${sha}`);
    stream.detach();
    await client.call('run.stop', { run: 'frames-exact' });
  });

  // A page asks the core's version after it connects (core.info): then its visibility changes and acks go in one
  // `flow` message per task (shared/flow-batch.ts); a client that did not ask (an older page) sends each on its own.
  it.each([
    ['in flow messages (protocol 9)', 'frames-hidden', true],
    ['as single messages (an older client)', 'frames-hidden-single', false],
  ])(
    'a hidden pane is sent a few lines while hidden, not a flood; shown again, it equals the core mirror (near: bytes, far: screen); visibility and acks %s',
    async (_how, run, asksVersion) => {
      const c = asksVersion ? client : await server.connect();
      if (asksVersion) expect((await c.call('core.info', {})).protocolVersion).toBeGreaterThanOrEqual(9);
      const agentId = await startAgent(run);
      const term = new Terminal({ cols: 80, rows: 24, scrollback: 5000, allowProposedApi: true });
      let bytes = 0;
      let resets = 0;
      const written = () => new Promise<void>((resolve) => term.write('', resolve));
      const stream = await c.attach(
        agentId,
        { autoAck: true, visible: false },
        {
          onData: (data) => {
            bytes += data.length;
            term.write(data);
          },
          onReset: (screen, _offset, cols, rows) => {
            resets++;
            term.resize(cols, rows);
            term.write(`\x1bc${screen}`);
          },
        },
      );
      const mirror = async () => (await c.call('agent.screen', { agentId })).text;
      const matchesMirror = async () => {
        await written();
        return tail(screenText(term), 12).join('\n') === tail(await mirror(), 12).join('\n');
      };
      expect(resets).toBe(1); // a fresh view starts from the mirror's screen

      // Near: a few lines while hidden come while it is hidden (at a low rate: FLOW.hiddenEveryMs), exactly, so the
      // hidden pane already shows what the mirror does; shown, it stays so.
      stream.input('L300\x04');
      await waitFor(async () => (await mirror()).includes(line(299)), 'the mirror to show the output');
      await waitFor(() => bytes === expectedOutput(300).length, 'the hidden pane to be sent the lines', 10_000);
      expect(await matchesMirror()).toBe(true);
      stream.setVisible(true);
      await waitFor(matchesMirror, 'the shown pane to equal the mirror', 15_000);
      expect(resets).toBe(1);
      expect(bytes).toBe(expectedOutput(300).length);

      // Far: more than the catch-up allowance while hidden: the flood is not sent to the hidden pane; shown again, the
      // mirror's screen replaces the view.
      stream.setVisible(false);
      await new Promise((r) => setTimeout(r, 100));
      const before = bytes;
      stream.input('L12000\x04');
      await waitFor(async () => (await mirror()).includes(line(11_999)), 'the mirror to show the flood', 30_000);
      expect(bytes - before).toBeLessThan(256 * 1024);
      stream.setVisible(true);
      await waitFor(matchesMirror, 'the pane shown after the flood to equal the mirror', 15_000);
      expect(resets).toBe(2);
      stream.detach();
      term.dispose();
      await c.call('run.stop', { run });
      if (!asksVersion) c.close();
    },
  );

  it('while the user types into one pane, a flooding pane is paced to 32 KiB ahead of the page; after, the full window', async () => {
    const typed = await startAgent('frames-paced-a');
    const flooding = await startAgent('frames-paced-b');
    const a = await client.attach(typed, { autoAck: true, visible: true }, { onData: () => {}, onReset: () => {} });
    let received = 0;
    // Never acked: what arrives is exactly what the core lets run ahead of the page.
    const b = await client.attach(
      flooding,
      { visible: true },
      { onData: (data) => void (received += data.length), onReset: () => {} },
    );
    a.input('x');
    await client.call('agent.write', { agentId: flooding, data: 'L20000\x04' });
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 150));
      a.input('x');
      expect(received).toBeLessThanOrEqual(32 * 1024);
    }
    expect(received).toBeGreaterThan(0);
    await waitFor(() => received > 32 * 1024, 'the full window once the typing stopped', 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(received).toBeLessThanOrEqual(FLOW.visibleBudget);
    a.detach();
    b.detach();
    await client.call('run.stop', { run: 'frames-paced-a' });
    await client.call('run.stop', { run: 'frames-paced-b' });
  });
});
