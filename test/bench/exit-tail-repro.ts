// Repro (not part of `npm run bench`): output lost at exit while PtyHost holds its PTY paused.
// Run: npx tsx test/bench/exit-tail-repro.ts
//
// A writer prints a bit more than FLOW.highWatermark and exits; the client acks 400 ms late, so the terminal
// pauses the PTY with the last few KiB still in the kernel. The child exits; node-pty destroys its socket
// 200 ms after the exit (DESTROY_SOCKET_TIMEOUT_MS in node-pty/lib/unixTerminal.js) and the tail is gone:
// not in the ring, not in the mirror, not in any snapshot.
import { tmpdir } from 'node:os';
import { PtyHost } from '../../electron/core/pty/pty-host.js';
import { childEnv, SIZE } from './throughput.js';

const WRITER = `const n=+process.argv[1];const b=Buffer.alloc(65536,65);let left=n;while(left>0){const k=Math.min(left,65536);process.stdout.write(b.subarray(0,k));left-=k}`;
const ACK_DELAY_MS = 400;

let lostRuns = 0;
for (let bytes = 524_000; bytes <= 540_000; bytes += 4000) {
  const host = new PtyHost(null);
  const t = host.spawn({
    argv: [process.execPath, '-e', WRITER, String(bytes)],
    cwd: tmpdir(),
    env: childEnv(),
    cols: SIZE.cols,
    rows: SIZE.rows,
  });
  let got = 0;
  const a = await t.attach(0, true, (f) => {
    if (f.kind !== 'bytes') return;
    got = f.offset + f.data.length;
    const upTo = got;
    setTimeout(() => a.subscription.ack(upTo), ACK_DELAY_MS);
  });
  await new Promise<void>((r) => t.onExit(() => r()));
  await new Promise((r) => setTimeout(r, ACK_DELAY_MS * 4));
  const lost = bytes - t.endOffset;
  if (lost > 0) lostRuns++;
  console.log(
    `wrote ${bytes} B, terminal received ${t.endOffset} B, client got ${got} B${lost > 0 ? `   LOST ${lost} B` : ''}`,
  );
  await host.stopAll();
  host.release(t.id);
  host.close();
}
console.log(lostRuns > 0 ? `${lostRuns} run(s) lost their tail` : 'no run lost output');
