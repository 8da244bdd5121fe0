// The compat suite's harness: the mock model every real CLI talks to (started once, with the report written at the
// end), each vendor's CLI installed once however many tests ask, and each check recorded in the report (a skip with
// its reason, never a pass).
import { afterAll, beforeAll, type TestContext } from 'vitest';
import type { VendorName } from '../../shared/words.js';
import type { VendorAdapter } from '../../electron/core/vendors/adapter.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import { PINS, ensureInstalled, type CompatVendor, type InstallResult } from './install.js';
import { startMockModel, type MockModel } from './mock-model.js';
import { recordCheck, recordInstall, writeReport, type Status } from './report.js';

export const QUESTION = 'what number did I ask you to remember';
export const KEEP = process.env.BATON_COMPAT_KEEP === '1';
export const SELECTED = (process.env.BATON_COMPAT_VENDORS ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

export let mock: MockModel;

export function useMockModelAndReport(): void {
  beforeAll(async () => {
    mock = await startMockModel({ verbose: process.env.BATON_COMPAT_VERBOSE === '1' });
  });

  afterAll(async () => {
    writeReport();
    await mock?.close();
  });
}

// ---------- helpers ----------

export const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Installs once per vendor, however many tests ask. */
const installs = new Map<CompatVendor, Promise<InstallResult>>();
function installed(vendor: CompatVendor): Promise<InstallResult> {
  let p = installs.get(vendor);
  if (!p) {
    p = ensureInstalled(vendor).then((r) => {
      recordInstall(vendor, r.ok ? r.versionText : null, r.seconds);
      return r;
    });
    installs.set(vendor, p);
  }
  return p;
}

/** Records a check's result in the report, turning skips into vitest skips and failures into thrown errors. */
export async function check(
  ctx: TestContext,
  vendor: CompatVendor,
  name: string,
  body: (skip: (why: string) => never) => Promise<string | null>,
): Promise<void> {
  const t0 = Date.now();
  const done = (status: Status, detail: string | null) =>
    recordCheck(vendor, { name, status, detail, seconds: seconds(t0) });
  class Skip extends Error {}
  const skip = (why: string): never => {
    throw new Skip(why);
  };
  let note: string | null;
  try {
    note = await body(skip);
  } catch (err) {
    if (err instanceof Skip) {
      done('skip', err.message);
      process.stderr.write(`compat: ${vendor} ${name} SKIPPED: ${err.message}\n`);
      ctx.skip(err.message);
    }
    // The report keeps the failure itself; the diagnostics appended after it (server output, mock log) stay in vitest's.
    const message = (err instanceof Error ? err.message : String(err)).split('\n--- ')[0]!;
    done('fail', message.split('\n').slice(0, 3).join(' ').slice(0, 400));
    throw err;
  }
  done('pass', note);
}

export async function requireInstalled(
  vendor: CompatVendor,
  skip: (why: string) => never,
): Promise<{ bin: string; versionText: string; adapter: VendorAdapter }> {
  const inst = await installed(vendor);
  if (!inst.ok) skip(`${PINS[vendor].pkg}@${PINS[vendor].version} could not be installed or started: ${inst.reason}`);
  const adapter = createVendors().get(vendor as VendorName);
  if (!adapter) skip(`this build of Baton has no ${vendor} adapter (electron/core/vendors/registry.ts)`);
  return { bin: inst.bin, versionText: inst.versionText, adapter: adapter! };
}

/** What the journey learned that the flag check can use: the real resume argv of a real session. */
export const resumeArgvSeen = new Map<CompatVendor, string[]>();
