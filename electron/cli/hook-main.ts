// The entry a vendor's hook runs (`<runtime> hook-main.js <vendor> [json]`): the same report as `baton hook`, without
// loading the whole command line, so the agent's turn waits as little as possible (docs/attention.md §4).
import { sendHookReport } from './hook/report.js';

const [vendor = '', ...rest] = process.argv.slice(2);
sendHookReport(vendor, rest.at(-1) ?? null, process.env).then(
  () => process.exit(0),
  () => process.exit(0),
);
