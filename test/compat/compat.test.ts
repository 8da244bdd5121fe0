// The real vendor CLIs (pinned versions from npm) inside Baton's PTYs, against the project's own mock model.
// Per vendor, through a real `baton serve` whose agents inherit an environment that points the CLI at the mock
// only (docs/vendors.md §12.2): start a run, type "remember the number N", snapshot, stop, resume from the handle, ask,
// and see N come back, on the screen and in the mock's log (a request whose history has N while its last user
// message does not); a control run that was not resumed must not know N. After every stop no process of the
// agent may remain. And every flag the adapter passes must appear in the CLI's own --help.
// A vendor whose CLI cannot be installed or started is skipped with its reason (vitest and the report), never passed.
import { readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PINS, cacheRoot } from './install.js';
import { declareVendor } from './report.js';
import { ORDER, SPECS } from './vendors.js';
import { SELECTED, useMockModelAndReport, check, requireInstalled } from './compat-harness.js';
import { journey } from './compat-journey.js';
import { flagCheck } from './compat-flags.js';

/**
 * What the developer's own HOME holds, three levels deep, minus the compat cache and npm's: every real CLI runs
 * with a HOME of its own, so nothing may appear here while the suite runs.
 */
function homeEntries(): Set<string> {
  const home = homedir();
  const skip = [cacheRoot(), join(home, '.npm')];
  const found = new Set<string>();
  const walk = (dir: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (skip.some((s) => path === s || path.startsWith(`${s}/`))) continue;
      found.add(relative(home, path));
      if (depth < 3) walk(path, depth + 1);
    }
  };
  walk(home, 1);
  return found;
}
const homeBefore = homeEntries();

useMockModelAndReport();

// ---------- one describe per vendor ----------

for (const vendor of ORDER) {
  const spec = SPECS[vendor];
  const pin = PINS[vendor];
  const chosen = SELECTED.length === 0 || SELECTED.includes(vendor);
  if (chosen) declareVendor(vendor, pin.version);
  const suite = chosen ? describe.sequential : describe.skip;

  suite(`${vendor} ${pin.version}`, () => {
    it(
      `${vendor}: a resumed agent remembers the number; a fresh one does not; nothing outlives a stop`,
      async (ctx) => {
        await check(ctx, vendor, 'journey', async (skip) => {
          const { bin, versionText, adapter } = await requireInstalled(vendor, skip);
          return journey(vendor, spec, bin, versionText, adapter);
        });
      },
      pin.installTimeoutMs + spec.journeyMs,
    );

    it(
      `${vendor}: every flag the adapter passes appears in the CLI's --help`,
      async (ctx) => {
        await check(ctx, vendor, '--help flags', async (skip) => {
          const { bin, versionText, adapter } = await requireInstalled(vendor, skip);
          return flagCheck(vendor, spec, bin, versionText, adapter);
        });
      },
      pin.installTimeoutMs + 120_000,
    );
  });
}

describe("the developer's own HOME", () => {
  it('gains nothing from installing and running the real CLIs', () => {
    const added = [...homeEntries()].filter((e) => !homeBefore.has(e));
    expect(added, `entries the compat suite created in ${homedir()}`).toEqual([]);
  });
});
