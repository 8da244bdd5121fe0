// BATON_MIRROR_TRACE=<file>: the core's side of a pane's attach, one JSON line each, beside the mirror threads' lines
// (test/bench/mirror-trace.ts matches them with the page's fetches by agent): when the core's main thread took the
// request and when its reply went to the socket. With the page's own start and end of the fetch, that splits a first
// visit's wait into the page → core hop, the core's handling and the core → page hop (docs/performance.md, switch5).
import { appendFileSync } from 'node:fs';

const traceFile = process.env.BATON_MIRROR_TRACE;

/** The epoch time now (ms, fractional), or 0 when not tracing. */
export const attachTraceStart = (): number => (traceFile ? performance.timeOrigin + performance.now() : 0);

/** Logs one attach: taken at `recv` (attachTraceStart), answered now. */
export function traceAttach(agentId: string, recv: number): void {
  if (!traceFile) return;
  const sent = performance.timeOrigin + performance.now();
  appendFileSync(traceFile, JSON.stringify({ k: 'attach', agentId, recv, sent }) + '\n');
}
