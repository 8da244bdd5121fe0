// One row per soak check: what was done how many times, what was counted, and whether the goal held.
export interface SoakRow {
  check: string;
  /** How many times the action ran (kills, stops, handles, messages…). */
  count: number;
  /** The figures the goal is about, in words: "0 unreadable files, 0 lost snapshots". */
  figures: string;
  goal: string;
  ok: boolean;
  seconds: number;
}

export function printTable(rows: readonly SoakRow[]): string {
  const lines = [
    '| check | count | figures | goal | result | s |',
    '|---|---:|---|---|---|---:|',
    ...rows.map(
      (r) =>
        `| ${r.check} | ${r.count} | ${r.figures} | ${r.goal} | ${r.ok ? 'pass' : '**FAIL**'} | ${r.seconds.toFixed(0)} |`,
    ),
  ];
  return lines.join('\n');
}

/** Times `body` and turns a throw into a failed row, so one broken check never hides the others. */
export async function timedRow(
  check: string,
  goal: string,
  body: () => Promise<Omit<SoakRow, 'check' | 'goal' | 'seconds'>>,
): Promise<SoakRow> {
  const started = Date.now();
  try {
    const r = await body();
    return { check, goal, ...r, seconds: (Date.now() - started) / 1000 };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      check,
      goal,
      count: 0,
      figures: `aborted: ${message.split('\n')[0]!.slice(0, 200)}`,
      ok: false,
      seconds: (Date.now() - started) / 1000,
    };
  }
}
