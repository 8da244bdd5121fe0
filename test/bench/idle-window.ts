// What an idle window holds, for the idle benches (idle.ts, renderer-scale.ts): the messages crossing the page's
// WebSocket by kind, and the core's CPU by thread (its main thread against its workers: mirrors, search, tracker).
import { readdirSync, readFileSync } from 'node:fs';
import type { BenchPage } from './renderer-page.js';

/** What crosses the page's WebSocket meanwhile, by kind (binary frames) or by message type and name (JSON). */
export function countMessages(p: BenchPage): () => Map<string, number> {
  const counts = new Map<string, number>();
  const kind = (dir: string, f: { opcode: number; payloadData: string }) => {
    if (f.opcode !== 1) return `${dir} binary frame kind ${Buffer.from(f.payloadData, 'base64')[0] ?? '?'}`;
    const m = /"t":"([^"]+)"(?:.*?"(?:method|event|name)":"([^"]+)")?/.exec(f.payloadData);
    return `${dir} ${m ? `${m[1]} ${m[2] ?? ''}` : f.payloadData.slice(0, 40)}`.trim();
  };
  const on = (dir: string) => (e: { response: { opcode: number; payloadData: string } }) => {
    const k = kind(dir, e.response);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  };
  const received = on('core → page');
  const sent = on('page → core');
  p.cdp.on('Network.webSocketFrameReceived', received);
  p.cdp.on('Network.webSocketFrameSent', sent);
  return () => {
    p.cdp.off('Network.webSocketFrameReceived', received);
    p.cdp.off('Network.webSocketFrameSent', sent);
    return counts;
  };
}

/** "a ×3, b ×1", the most first; "none" when nothing came. */
export const countsText = (counts: Map<string, number>): string =>
  counts.size === 0
    ? 'none'
    : [...counts]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ×${n}`)
        .join(', ');

/** CPU seconds so far of each of the process's threads, by thread name (threads of one name summed). */
export function threadCpuSeconds(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
  }
  return out;
}

/** Each thread's share of a core between two readings over `seconds`, the busiest first, those above 0.05%. */
export function threadShares(before: Map<string, number>, after: Map<string, number>, seconds: number): string {
  return (
    [...after]
      .map(([name, s]) => [name, (s - (before.get(name) ?? 0)) / seconds] as const)
      .filter(([, share]) => share >= 0.0005)
      .sort((a, b) => b[1] - a[1])
      .map(([name, share]) => `${name} ${(share * 100).toFixed(1)}%`)
      .join(', ') || 'none'
  );
}
