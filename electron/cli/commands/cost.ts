// `baton cost <run> [--json]`: what a run's agents cost so far, per agent and in total, read from the vendors' own
// transcripts and priced by the table whose date is printed (docs/cost.md).
import type { AgentCost, CostFigures, RunCost } from '../../../shared/contract.js';
import { costText, tokensText, totalOf } from '../../../shared/cost-text.js';
import { DATA_DIR_OPTION, JSON_OPTION, type CommandSpec } from '../command.js';
import { json, note, out } from '../output.js';
import { RUN_ARG, runArg } from './common.js';

function detail(f: CostFigures): string {
  if (!f.tokens) return '';
  const t = f.tokens;
  return ` (in ${tokensText(t.input)}, out ${tokensText(t.output)}, cache read ${tokensText(t.cacheRead)}, cache write ${tokensText(t.cacheWrite)})`;
}

function agentLine(a: AgentCost): string {
  const models = a.models.length > 0 ? `  [${a.models.join(', ')}]` : '';
  const from = a.usdFrom ? `, ${a.usdFrom}` : '';
  const why = a.note ? `  — ${a.note}` : '';
  return `${a.label}\t${a.vendor}\t${costText(totalOf(a))}${detail(a)}${from}${models}${why}`;
}

export function costReport(c: RunCost): string[] {
  const lines = c.agents.map(agentLine);
  if (c.agents.length === 0) lines.push('(no agent of this run talks to a model)');
  lines.push(`total\t\t${costText(totalOf(c.total))}${detail(c.total)}`);
  const source = c.prices.source === 'file' ? ` from ${c.prices.file ?? 'prices.json'}` : ' (built-in)';
  lines.push(`prices as of ${c.prices.asOf}${source}`);
  return lines;
}

export const costCommand: CommandSpec = {
  name: 'cost',
  args: [RUN_ARG],
  summary: "print what a run's agents cost: tokens and USD, per agent and in total",
  details:
    "Reads each agent's tokens from its vendor's own transcripts (every session it had, each counted once) and " +
    "prices them: the vendor's recorded cost where it has one, else Baton's price table, overridable with " +
    'prices.json in the data directory. What is not known says "unknown".',
  options: [JSON_OPTION, DATA_DIR_OPTION],
  example: 'cost demo --json',
  async run(ctx) {
    const cost = await (await ctx.server()).call('run.cost', { run: runArg(ctx) });
    if (ctx.args.has('json')) json(cost);
    else for (const line of costReport(cost)) out(line);
    // A bad prices.json is said on standard error, so a script reading the figures still gets them only.
    if (cost.prices.error) note(cost.prices.error);
    return 'done';
  },
};
