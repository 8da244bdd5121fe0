// Where a function's time went, from a page's CPU profile kept by BENCH_PROFILE_FILE (page-profile.ts):
//   npx tsx test/bench/profile-under.ts <file.cpuprofile> <function name> [levels]
// prints the time under every call of that function (its outermost call on each stack), split among what it called,
// `levels` deep (3 unless told), each line with its share of the function's time.
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples?: number[];
  timeDeltas?: number[];
}

const [file, wanted, levelsArg] = process.argv.slice(2);
if (!file || !wanted) {
  console.error('usage: profile-under.ts <file.cpuprofile> <function name> [levels]');
  process.exit(2);
}
const levels = Number(levelsArg ?? 3);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n: Node) => {
  const f = n.callFrame;
  const where = f.url ? ` ${f.url.split('/').pop()}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'}${where}`;
};

// Per sample: its stack from the root; the part below the outermost frame named `wanted`, `levels` deep.
const tree = new Map<string, number>();
let total = 0;
const deltas = profile.timeDeltas ?? [];
(profile.samples ?? []).forEach((leaf, i) => {
  const stack: Node[] = [];
  for (let at: number | undefined = leaf; at !== undefined; at = parent.get(at)) stack.unshift(nodes.get(at)!);
  const top = stack.findIndex((n) => n.callFrame.functionName === wanted);
  if (top < 0) return;
  const us = deltas[i] ?? 0;
  total += us;
  const below = stack.slice(top + 1, top + 1 + levels).map(label);
  for (let d = 0; d <= below.length; d++) {
    const key = below.slice(0, d).join(' → ') || '(all)';
    tree.set(key, (tree.get(key) ?? 0) + us);
  }
});
console.log(`${wanted}: ${(total / 1000).toFixed(1)} ms sampled`);
for (const [key, us] of [...tree].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
  if (us / total >= 0.01)
    console.log(
      `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(1).padStart(7)} ms  ${'  '.repeat(key.split(' → ').length - 1)}${key.split(' → ').pop()}`,
    );
