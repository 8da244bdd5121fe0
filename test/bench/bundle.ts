// The cost of a bundle: `npx tsx test/bench/bundle.ts` (BENCH_LINES=n for another size). A transcript-like JSON Lines
// file (20,000 turns, about 4 MB) is gzip'd, sealed (scrypt N=2^17, r=8, p=1, then AES-256-GCM) and opened; against a
// baseline measured in the same run: AES-256-GCM alone over the same bytes with a fixed key. The ratio shows what the
// key derivation adds, which is what makes guessing a passphrase slow. No goal is set for it; nothing here asserts a time.
import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { openBundle, sealBundle } from '../../electron/core/bundle/crypto.js';

const LINES = Number(process.env.BENCH_LINES ?? 20_000);
const lines: string[] = [];
for (let i = 0; i < LINES; i++)
  lines.push(
    JSON.stringify({
      sessionId: randomUUID(),
      cwd: '/home/u/proj',
      type: i % 2 ? 'assistant' : 'user',
      message: { content: `turn ${i}: edited /home/u/proj/src/file${i % 50}.ts and ran the tests, all passed` },
    }),
  );
const raw = Buffer.from(lines.join('\n'));
const ms = (t0: number) => performance.now() - t0;

let t = performance.now();
const gz = gzipSync(raw);
const gzipMs = ms(t);
t = performance.now();
const cipher = createCipheriv('aes-256-gcm', randomBytes(32), randomBytes(12));
Buffer.concat([cipher.update(gz), cipher.final()]);
const aesMs = ms(t);
t = performance.now();
const sealed = await sealBundle(gz, 'a passphrase for the bench');
const sealMs = ms(t);
t = performance.now();
await openBundle(sealed, 'a passphrase for the bench');
const openMs = ms(t);

console.log(
  `transcript ${(raw.length / 1e6).toFixed(2)} MB → gzip ${(gz.length / 1e6).toFixed(2)} MB (${(raw.length / gz.length).toFixed(1)}× smaller, ${gzipMs.toFixed(0)} ms)`,
);
console.log(`baseline AES-256-GCM alone: ${aesMs.toFixed(1)} ms`);
console.log(
  `seal ${sealMs.toFixed(0)} ms (${(sealMs / aesMs).toFixed(0)}× the baseline), open ${openMs.toFixed(0)} ms (${(openMs / aesMs).toFixed(0)}×)`,
);
