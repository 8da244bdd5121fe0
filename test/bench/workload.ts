// The throughput workload: a Node child that writes N MiB of printable bytes, no newlines, in 64 KiB writes.
// The content is deterministic so the receiver can check it byte for byte after the clock has stopped.

export const WRITE_BYTES = 64 * 1024;
const PERIOD = 94; // printable ASCII '!'..'~'

/** Source for `node -e`; argv[1] is the size in MiB. A TTY stdout is written synchronously, so exit means all written. */
export const WRITER_SCRIPT = [
  'const n=+process.argv[1];',
  `const p=Buffer.alloc(${WRITE_BYTES + PERIOD});`,
  `for(let k=0;k<p.length;k++)p[k]=33+(k%${PERIOD});`,
  `for(let i=0;i<n*${(1 << 20) / WRITE_BYTES};i++){const o=(i*7)%${PERIOD};process.stdout.write(p.subarray(o,o+${WRITE_BYTES}))}`,
].join('');

export const totalBytes = (mib: number): number => mib * (1 << 20);

/** The exact bytes WRITER_SCRIPT produces for `mib`. */
export function expectedOutput(mib: number): Buffer {
  const out = Buffer.allocUnsafe(totalBytes(mib));
  const pattern = Buffer.alloc(WRITE_BYTES + PERIOD);
  for (let k = 0; k < pattern.length; k++) pattern[k] = 33 + (k % PERIOD);
  for (let i = 0; i * WRITE_BYTES < out.length; i++) {
    const o = (i * 7) % PERIOD;
    pattern.copy(out, i * WRITE_BYTES, o, o + WRITE_BYTES);
  }
  return out;
}

/** Whether the received chunks are exactly `expected` (compared after timing, so the check costs nothing measured). */
export function sameBytes(chunks: readonly Uint8Array[], expected: Buffer): boolean {
  let at = 0;
  for (const c of chunks) {
    if (at + c.length > expected.length) return false;
    if (Buffer.compare(Buffer.from(c.buffer, c.byteOffset, c.length), expected.subarray(at, at + c.length)) !== 0)
      return false;
    at += c.length;
  }
  return at === expected.length;
}
