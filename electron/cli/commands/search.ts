// `baton search`: every conversation on this machine holding the words (docs/search.md), newest first.
import { resolve } from 'node:path';
import type { SearchResult } from '../../../shared/contract.js';
import { VENDOR_NAMES, type VendorName } from '../../../shared/words.js';
import { DATA_DIR_OPTION, JSON_OPTION, type CommandSpec } from '../command.js';
import { UsageError } from '../errors.js';
import { json, note, out, plural } from '../output.js';

/** A line with its matches in brackets: a terminal shows them without colour, and scripts take --json. */
function marked(text: string, match: readonly (readonly [number, number])[]): string {
  let shown = '';
  let at = 0;
  for (const [a, b] of match) {
    shown += `${text.slice(at, a)}[${text.slice(a, b)}]`;
    at = b;
  }
  return shown + text.slice(at);
}

function printResult(r: SearchResult): void {
  const where = r.holder ? `run '${r.holder.runName}' / ${r.holder.label}` : 'outside Baton';
  out(`${r.vendor}  ${where}  ${r.cwd ?? '(directory unknown)'}  ${r.lastActivity}  session ${r.sessionId}`);
  for (const h of r.hits) {
    out(`  ${h.role}${h.time ? ` ${h.time}` : ''} (message ${h.messageId}):`);
    for (const l of h.lines) out(`    ${marked(l.text, l.match)}`);
  }
  if (r.moreHits > 0) out(`  … and ${plural(r.moreHits, 'more matching message')}`);
}

export const searchCommand: CommandSpec = {
  name: 'search',
  args: [
    { name: 'words', help: 'the words to find (quote several: "retry backoff"); "a phrase" in quotes, word* a prefix' },
  ],
  summary: "search every agent's conversations on this machine (Baton's and the others)",
  details:
    "Searches the user and assistant messages of every vendor's conversations on this machine, started in Baton or " +
    'not, newest first. Each result names the vendor, the run and label holding it (or "outside Baton"), the ' +
    'directory, its last activity and the matching lines, matches in [brackets]. The index is kept on this machine only.',
  options: [
    { name: 'vendor', value: 'VENDOR', help: `only this vendor's (${VENDOR_NAMES.join(', ')})` },
    { name: 'run', value: 'RUN', help: "only this run's agents' conversations" },
    { name: 'dir', value: 'DIR', help: 'only conversations in this directory or below it', directory: true },
    { name: 'limit', value: 'N', help: 'at most N conversations (default 20, at most 200)' },
    JSON_OPTION,
    DATA_DIR_OPTION,
  ],
  example: 'search "flaky test" --vendor claude',
  async run(ctx) {
    const text = ctx.args.required('words');
    if (text.trim() === '') throw new UsageError('<words> is empty: give the words to find');
    const vendor = ctx.args.value('vendor');
    if (vendor !== undefined && !(VENDOR_NAMES as readonly string[]).includes(vendor))
      throw new UsageError(`--vendor must be one of ${VENDOR_NAMES.join(', ')}`);
    const limitText = ctx.args.value('limit') ?? '20';
    const limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < 1 || limit > 200)
      throw new UsageError('--limit must be a whole number from 1 to 200');
    const dir = ctx.args.value('dir');
    const run = ctx.args.value('run');
    const client = await ctx.server();
    // What changed since the core last looked (a conversation that just grew) is read first.
    await client.call('search.refresh', {});
    const found = await client.call('search.query', {
      text,
      limit,
      ...(vendor ? { vendor: vendor as VendorName } : {}),
      ...(run ? { run } : {}),
      ...(dir ? { dir: resolve(dir) } : {}),
    });
    if (ctx.args.has('json')) {
      json(found);
      return 'done';
    }
    if (found.results.length === 0) out('No conversation holds those words.');
    for (const r of found.results) printResult(r);
    note(
      `${plural(found.total, 'conversation')} matched${found.total > found.results.length ? `, the newest ${found.results.length} shown` : ''}` +
        `${found.capped ? ' (only the newest matching messages were read: add words to narrow it)' : ''}; ` +
        `index: ${plural(found.status.files, 'transcript')}, ${plural(found.status.messages, 'message')}`,
    );
    return 'done';
  },
};
