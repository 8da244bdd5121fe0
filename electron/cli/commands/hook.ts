// `baton hook <vendor> [json]`: a vendor's hook reports its agent's state to the core (docs/attention.md §4).
import type { CommandSpec } from '../command.js';

export const hookCommand: CommandSpec = {
  name: 'hook',
  args: [
    { name: 'vendor', help: 'the vendor whose hook this is (claude, codex, gemini, …)' },
    { name: 'json', help: "the vendor's JSON, when it passes it as an argument (Codex's notify)", optional: true },
  ],
  summary: "report an agent's state from its vendor's hook (run by the agent's CLI, not by hand)",
  details:
    "Run by an agent's CLI: Claude Code's and Gemini's hooks, Codex's notify program. Reads the vendor's JSON from standard input or its last argument and reports it to the core with the agent's own secret, from the environment Baton gave the agent. Prints nothing and exits 0 whatever happens, so a report never stops the agent's turn.",
  options: [],
  example: 'hook claude < event.json',
  async run(ctx) {
    // Loaded here, not at the top: every other command would load Node's socket module for nothing.
    const { sendHookReport } = await import('../hook/report.js');
    await sendHookReport(ctx.args.required('vendor'), ctx.args.arg('json') ?? null, ctx.env);
    return 'done';
  },
};
