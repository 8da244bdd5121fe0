// Where a core's main thread spent its time, from a .cpuprofile written by test/bench/ssh.ts (BATON_BENCH_PROFILE):
// self time by function and by file, the largest first. Run: npx tsx test/bench/profile-summary.ts <file.cpuprofile>
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile>');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
for (const [id, us] of selfUs) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const short = url.replace(/^.*\/(node_modules|dist|electron|node:internal)\//, '$1/').replace(/^file:\/\//, '');
  byFunction.set(
    `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`,
    (byFunction.get(`${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`) ?? 0) + us,
  );
  const where = short || functionName;
  byFile.set(where, (byFile.get(where) ?? 0) + us);
}
const top = (m: Map<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`)
    .join('\n');
console.log(
  `${file}: ${(total / 1e6).toFixed(1)} s sampled\n\nby file:\n${top(byFile, 15)}\n\nby function:\n${top(byFunction, 25)}`,
);
