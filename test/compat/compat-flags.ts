// The compat suite's flag check: every flag the adapter passes (fresh, resume, and the real resume argv the journey
// saw) must appear in the real CLI's own --help.
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { AgentContext, VendorAdapter } from '../../electron/core/vendors/adapter.js';
import { run as runCommand, type CompatVendor } from './install.js';
import { type CompatVendorSpec } from './vendors.js';
import { resumeArgvSeen } from './compat-harness.js';
import { escapeRe } from './compat-screens.js';
import { prepare, teardown } from './compat-journey.js';

// ---------- flags ----------

/** `--x` / `-x` tokens after argv[0] (a `--flag=value` counts as `--flag`). */
export function flagsOf(argv: readonly string[]): string[] {
  return argv
    .slice(1)
    .filter((t) => /^--?[A-Za-z]/.test(t))
    .map((t) => t.split('=')[0]!);
}

/** The subcommand a plan runs (`codex resume …`), if its first argument is not a flag. */
function subcommandOf(argv: readonly string[]): string | null {
  const first = argv[1];
  return first !== undefined && !first.startsWith('-') ? first : null;
}

function helpMentions(help: string, flag: string): boolean {
  return new RegExp(`(^|[\\s,\\[(|/"'\`])${escapeRe(flag)}(?=$|[\\s,=\\]\\[<)|."'\`])`, 'm').test(help);
}

function dummyId(vendor: CompatVendor): string {
  if (vendor === 'opencode') {
    const b62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    const tail = [...randomBytes(14)].map((b) => b62[b % 62]).join('');
    return `ses_${randomBytes(6).toString('hex')}${tail}`;
  }
  return randomUUID();
}

// ---------- the flag check ----------

export async function flagCheck(
  vendor: CompatVendor,
  spec: CompatVendorSpec,
  bin: string,
  versionText: string,
  adapter: VendorAdapter,
): Promise<string> {
  const j = prepare(vendor, spec, bin, versionText);
  try {
    const ctx: AgentContext = { runName: 'compat', label: 'agent', cwd: j.cwd, args: [], command: null };
    const id = dummyId(vendor);
    const plans: string[][] = [
      (await adapter.spawnFresh(ctx, j.env)).argv,
      (await adapter.planResume(ctx, { sessionId: id, chosenBy: 'baton', confirmed: false }, j.env)).argv,
      (await adapter.planResume(ctx, { sessionId: id, chosenBy: 'vendor', confirmed: true }, j.env)).argv,
      adapter.resumeCommand(id),
    ];
    const seen = resumeArgvSeen.get(vendor);
    if (seen) plans.push(seen);

    const helps = new Map<string, string>();
    const helpOf = async (sub: string | null): Promise<string> => {
      const key = sub ?? '';
      let text = helps.get(key);
      if (text === undefined) {
        const r = await runCommand([bin, ...(sub ? [sub] : []), '--help'], { cwd: j.cwd, env: j.env, ms: 60_000 });
        text = r.out;
        if (r.timedOut || text.trim() === '')
          throw new Error(
            `${bin} ${sub ?? ''} --help printed nothing (exit ${r.code}${r.timedOut ? ', timed out' : ''})`,
          );
        helps.set(key, text);
      }
      return text;
    };

    const missing: string[] = [];
    const checked = new Set<string>();
    for (const argv of plans) {
      const sub = subcommandOf(argv);
      if (sub && !helpMentions(await helpOf(null), sub))
        missing.push(`subcommand '${sub}' (in ${argv.slice(1).join(' ')})`);
      const help = await helpOf(sub);
      for (const flag of flagsOf(argv)) {
        const key = `${sub ?? ''} ${flag}`;
        if (checked.has(key)) continue;
        checked.add(key);
        if (!helpMentions(help, flag))
          missing.push(`${flag} (${sub ? `${sub} --help` : '--help'}; in ${argv.slice(1).join(' ')})`);
      }
    }
    expect(missing, `flags Baton's ${vendor} adapter passes that \`${vendor} --help\` does not mention`).toEqual([]);
    expect(checked.size).toBeGreaterThan(0);
    return `checked ${[...checked].map((k) => k.trim()).join(', ')}${seen ? '' : ' (no real resume argv: the journey did not get that far)'}`;
  } finally {
    await teardown(j, false);
  }
}
