// The samples of several BENCH_MIRROR_NICE runs pooled (BENCH_MIRROR_NICE_POOL=<file>, mirror-nice.ts): per scene and
// side, p50 / p90 / p99, and how many runs the niced side's p99 was lower in. Run: npx tsx test/bench/mirror-nice-pool.ts <file>
import { readFileSync } from 'node:fs';
import { ms, quantile } from './stats.js';

interface PoolLine {
  scene: string;
  side: 'shipped' | 'niced';
  [key: string]: unknown;
}

const file = process.argv[2];
if (!file) throw new Error('usage: mirror-nice-pool.ts <file>');
const lines = readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.startsWith('{'))
  .map((l) => JSON.parse(l) as PoolLine);
const q = (v: number[]) => [0.5, 0.9, 0.99].map((p) => ms(quantile(v, p))).join(' / ');
for (const scene of [...new Set(lines.map((l) => l.scene))]) {
  const of = lines.filter((l) => l.scene === scene);
  const keys = Object.keys(of[0]!).filter((k) => Array.isArray(of[0]![k]));
  for (const key of keys) {
    const side = (s: string) => of.filter((l) => l.side === s).map((l) => l[key] as number[]);
    const [shipped, niced] = [side('shipped'), side('niced')];
    const lower = shipped.filter((v, i) => quantile(niced[i]!, 0.99) < quantile(v, 0.99)).length;
    console.log(
      `${scene} ${key}: shipped ${q(shipped.flat())} (n=${shipped.flat().length}); niced ${q(niced.flat())} ` +
        `(n=${niced.flat().length}); niced p99 lower in ${lower} of ${shipped.length} runs`,
    );
  }
}
