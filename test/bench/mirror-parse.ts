// The mirror's share of the cost: the same bytes written to a Mirror alone (no PTY, no ring, no subscriber),
// in PTY-read-sized pieces under the same backlog limit the terminal uses, timed until capture() resolves.
import { FLOW } from '../../electron/core/pty/flow.js';
import { Mirror } from '../../electron/core/pty/mirror.js';
import { SIZE } from './throughput.js';
import { expectedOutput } from './workload.js';

/** A Linux PTY hands the reader about 4 KiB per read; the PtyHost path sees the same pieces. */
const PIECE = 4096;

export async function mirrorParse(mib: number): Promise<{ bytes: number; ms: number }> {
  const data = expectedOutput(mib);
  const mirror = new Mirror(SIZE.cols, SIZE.rows, FLOW.mirrorScrollback);
  let wake: (() => void) | null = null;
  mirror.onApplied(() => {
    if (wake && mirror.backlog < FLOW.mirrorBacklogBytes / 4) {
      const w = wake;
      wake = null;
      w();
    }
  });
  const t0 = performance.now();
  for (let at = 0; at < data.length; at += PIECE) {
    mirror.write(data.subarray(at, at + PIECE));
    // The terminal pauses its PTY when the mirror thread is this far behind, and so do we.
    if (mirror.backlog > FLOW.mirrorBacklogBytes) await new Promise<void>((r) => (wake = r));
  }
  const screen = await mirror.capture();
  const ms = performance.now() - t0;
  mirror.dispose();
  if (screen.offset !== data.length) throw new Error(`mirror applied ${screen.offset} of ${data.length} bytes`);
  return { bytes: data.length, ms };
}
