#!/usr/bin/env node
// `npm run lint:electron`: Electronegativity (npm @doyensec/electronegativity) over the desktop app's sources, as
// one application: Electron main, preload and app wiring (electron/) with the renderer (renderer/). Fails on any
// finding of a failing severity that .electronegativity.json does not allow with a written reason.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const config = JSON.parse(readFileSync(join(root, '.electronegativity.json'), 'utf8'));
const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
const cli = join(root, 'node_modules', '@doyensec', 'electronegativity', 'dist', 'index.js');

// One staging directory, so that global checks (CSP, navigation limits, permission handler) see the whole app and
// compiled copies under dist/ are not counted twice.
const stage = mkdtempSync(join(tmpdir(), 'baton-electronegativity-'));
try {
  for (const entry of config.include) cpSync(join(root, entry), join(stage, entry), { recursive: true });
  const csv = join(stage, 'findings.csv');
  const args = [cli, '-i', stage, '-r', '-e', electronVersion, '-o', csv, '-v', 'false'];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (run.status !== 0) {
    process.stderr.write(`${run.stdout}${run.stderr}\nlint:electron: electronegativity itself failed (exit ${run.status})\n`);
    process.exit(1);
  }
  if (process.env.BATON_LINT_KEEP) cpSync(csv, process.env.BATON_LINT_KEEP);
  const ignored = new Set((config.ignoredChecks ?? []).map((x) => x.check));
  const findings = parseCsv(readFileSync(csv, 'utf8'))
    .map((f) => ({ ...f, filename: f.filename.replace(/^[/\\]/, '') }))
    .filter((f) => !ignored.has(f.issue));
  const failing = new Set(config.failOn);
  const allowed = (f) => config.allowances.find((a) => a.check === f.issue && a.file === f.filename);
  const blocking = findings.filter((f) => failing.has(f.severity) && !allowed(f));
  const accepted = findings.filter((f) => failing.has(f.severity) && allowed(f));
  const minor = findings.filter((f) => !failing.has(f.severity));

  for (const f of minor) console.log(`note     ${f.severity.padEnd(13)} ${f.issue} ${f.filename}:${f.location} — ${f.description}`);
  for (const f of accepted) console.log(`allowed  ${f.severity.padEnd(13)} ${f.issue} ${f.filename}:${f.location} — ${allowed(f).reason}`);
  for (const f of blocking) console.log(`FAILED   ${f.severity.padEnd(13)} ${f.issue} ${f.filename}:${f.location} — ${f.description}\n         ${f.sample}`);
  for (const x of config.ignoredChecks ?? []) console.log(`ignored  ${x.check} — ${x.reason}`);
  const counts = ['HIGH', 'MEDIUM', 'LOW', 'INFORMATIONAL'].map((s) => `${findings.filter((f) => f.severity === s).length} ${s}`).join(', ');
  console.log(`electronegativity ${electronVersion ? `(Electron ${electronVersion})` : ''}: ${counts}; ${accepted.length} allowed with a reason; ${blocking.length} failing`);
  process.exit(blocking.length === 0 ? 0 : 1);
} finally {
  rmSync(stage, { recursive: true, force: true });
}

/** Electronegativity's CSV: a header line, then one finding per line; fields quoted when they hold commas. */
function parseCsv(text) {
  const rows = [];
  for (const line of text.split('\n').slice(1)) {
    if (!line.trim()) continue;
    const fields = [];
    let field = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quoted) {
        if (c === '"' && line[i + 1] === '"') (field += '"'), i++;
        else if (c === '"') quoted = false;
        else field += c;
      } else if (c === '"') quoted = true;
      else if (c === ',') fields.push(field), (field = '');
      else field += c;
    }
    fields.push(field);
    const [issue, severity, confidence, filename, location, sample, description, url] = fields.map((f) => f.trim());
    rows.push({ issue, severity, confidence, filename, location, sample, description, url });
  }
  return rows;
}
