// The cost step of the compat journey (docs/cost.md): the tokens Baton reads from the transcripts a real CLI wrote must
// equal, exactly, what the mock model reported for that CLI's conversation calls. Side calls a CLI makes and does not
// record (titles, Gemini's JSON router) are left out of the expected sum; a vendor whose real CLI records no usage is
// told as such, never passed.
import type { RpcClient } from '../../shared/client.js';
import type { RunCost } from '../../shared/contract.js';
import type { LoggedRequest } from './mock-model.js';

/**
 * The calls of a conversation: the streamed turns of each API. The rest of the model calls (titles, Gemini's JSON
 * router, and the side calls `unrecorded` names) are a CLI's own, which its transcript does not keep: returned
 * apart, so the journey reports how many there were.
 */
export function conversationCalls(
  log: readonly LoggedRequest[],
  unrecorded?: RegExp,
): { calls: LoggedRequest[]; unrecorded: LoggedRequest[] } {
  const modelCalls = log.filter((e) => e.usage !== null && e.status === 200);
  const turn = (e: LoggedRequest) =>
    (e.api === 'anthropic' || e.api === 'responses' || e.api === 'chat' || e.api === 'gemini-stream') &&
    e.reply !== 'Mock title' &&
    !(unrecorded !== undefined && unrecorded.test(e.lastUser));
  return { calls: modelCalls.filter(turn), unrecorded: modelCalls.filter((e) => !turn(e)) };
}

export interface CostCheck {
  expected: { input: number; cached: number; output: number; calls: number };
  read: { input: number; cached: number; output: number } | null;
  cost: RunCost;
}

/** Reads run.cost until its tokens match the mock's (the transcript may trail the screen), or `ms` passed. */
export async function readCost(
  client: RpcClient,
  runId: string,
  calls: readonly LoggedRequest[],
  ms: number,
): Promise<CostCheck> {
  const sum = (of: (u: NonNullable<LoggedRequest['usage']>) => number) =>
    calls.reduce((n, e) => n + (e.usage ? of(e.usage) : 0), 0);
  const expected = {
    input: sum((u) => u.input),
    cached: sum((u) => u.cached),
    output: sum((u) => u.output),
    calls: calls.length,
  };
  const deadline = Date.now() + ms;
  for (;;) {
    const cost = await client.call('run.cost', { run: runId });
    const t = cost.agents[0]?.tokens ?? null;
    // The whole prompt, however a vendor splits it, and the part read from the cache.
    const read = t && { input: t.input + t.cacheRead + t.cacheWrite, cached: t.cacheRead, output: t.output };
    const same =
      read && read.input === expected.input && read.cached === expected.cached && read.output === expected.output;
    if (same || Date.now() > deadline) return { expected, read, cost };
    await new Promise((r) => setTimeout(r, 500));
  }
}

export function describeCalls(calls: readonly LoggedRequest[]): string {
  return calls
    .map(
      (e) =>
        `#${e.seq} ${e.api} in=${e.usage?.input ?? '-'} cached=${e.usage?.cached ?? '-'} out=${e.usage?.output ?? '-'}`,
    )
    .join(', ');
}
