// The compat suite's report: per vendor its pinned version and pass / skip (reason) / fail (reason), with each
// check's time. Rewritten after every check, so an interrupted run still leaves what it found.
// test-results/compat-report.md (for people) and compat-report.json (for scripts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CompatVendor } from './install.js';

export type Status = 'pass' | 'skip' | 'fail';

export interface CheckResult {
  name: string;
  status: Status;
  /** Skip or failure reason; for a pass, a short note (optional). */
  detail: string | null;
  seconds: number;
}

export interface VendorReport {
  vendor: CompatVendor;
  version: string;
  /** What `--version` printed, once installed. */
  versionText: string | null;
  installSeconds: number | null;
  checks: CheckResult[];
}

const ROOT = resolve(import.meta.dirname, '../..');
export const REPORT_DIR = join(ROOT, 'test-results');
export const REPORT_MD = join(REPORT_DIR, 'compat-report.md');

const vendors = new Map<CompatVendor, VendorReport>();
const startedAt = new Date();

/** A vendor's overall result: any failure fails it; any skip (and no failure) skips it; pass only if all passed. */
export function overall(r: VendorReport): { status: Status | 'not run'; reason: string | null } {
  const failed = r.checks.filter((c) => c.status === 'fail');
  if (failed.length > 0)
    return { status: 'fail', reason: failed.map((c) => `${c.name}: ${c.detail ?? ''}`).join('; ') };
  const skipped = r.checks.filter((c) => c.status === 'skip');
  if (skipped.length > 0)
    return { status: 'skip', reason: [...new Set(skipped.map((c) => c.detail ?? ''))].join('; ') };
  if (r.checks.length === 0) return { status: 'not run', reason: null };
  return { status: 'pass', reason: null };
}

export function declareVendor(vendor: CompatVendor, version: string): VendorReport {
  let r = vendors.get(vendor);
  if (!r) {
    r = { vendor, version, versionText: null, installSeconds: null, checks: [] };
    vendors.set(vendor, r);
  }
  return r;
}

export function recordInstall(vendor: CompatVendor, versionText: string | null, seconds: number): void {
  const r = vendors.get(vendor);
  if (!r) return;
  r.versionText = versionText;
  r.installSeconds = seconds;
  writeReport();
}

export function recordCheck(vendor: CompatVendor, check: CheckResult): void {
  const r = vendors.get(vendor);
  if (!r) return;
  r.checks = r.checks.filter((c) => c.name !== check.name);
  r.checks.push(check);
  writeReport();
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

export function renderReport(): string {
  const lines = [
    '# Baton compat report: the real vendor CLIs against the mock model',
    '',
    `Started ${startedAt.toISOString()}, written ${new Date().toISOString()}; node ${process.version}, ${process.platform} ${process.arch}.`,
    'A vendor passes only when every check passed; a skip is never a pass.',
    '',
    '| vendor | version | result | reason | install s | checks |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of vendors.values()) {
    const o = overall(r);
    const checks = r.checks.map((c) => `${c.name}: ${c.status} ${c.seconds}s`).join('; ');
    lines.push(
      `| ${r.vendor} | ${cell(r.versionText ?? r.version)} | **${o.status}** | ${cell(o.reason ?? '')} | ${r.installSeconds ?? ''} | ${cell(checks)} |`,
    );
  }
  for (const r of vendors.values()) {
    if (r.checks.length === 0) continue;
    lines.push('', `## ${r.vendor}`, '');
    for (const c of r.checks)
      lines.push(`- ${c.name}: **${c.status}** (${c.seconds}s)${c.detail ? ` — ${c.detail}` : ''}`);
  }
  const counts = { pass: 0, skip: 0, fail: 0, 'not run': 0 };
  for (const r of vendors.values()) counts[overall(r).status]++;
  lines.push('');
  if (counts['not run'] > 0) lines.push(`${counts['not run']} vendor(s) not selected in this run.`, '');
  // Last, in the plain closing-line form (`word: N passed, N failed, N skipped`), counted per vendor.
  lines.push(`compat: ${counts.pass} passed, ${counts.fail} failed, ${counts.skip} skipped`, '');
  return lines.join('\n');
}

export function writeReport(): void {
  mkdirSync(REPORT_DIR, { recursive: true });
  writeFileSync(REPORT_MD, renderReport());
  const json = [...vendors.values()].map((r) => ({ ...r, result: overall(r) }));
  writeFileSync(
    join(REPORT_DIR, 'compat-report.json'),
    JSON.stringify({ startedAt: startedAt.toISOString(), vendors: json }, null, 2) + '\n',
  );
}
