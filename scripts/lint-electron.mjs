#!/usr/bin/env node
// `npm run lint:electron`: Electronegativity (npm @doyensec/electronegativity) over the desktop app's sources, as
// one application: Electron main, preload and app wiring (electron/) with the renderer (renderer/). Fails on any
// finding of a failing severity that .electronegativity.json does not allow with a written reason, and on any
// source file it could not parse (a file it cannot read is a file it did not check).
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const config = JSON.parse(readFileSync(join(root, '.electronegativity.json'), 'utf8'));
const electronVersion = JSON.parse(
  readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8'),
).version;
// Its programmatic entry (the CLI's CSV writer races its header against its rows, so the file can come out torn).
const electronegativity = createRequire(import.meta.url)('@doyensec/electronegativity');

// One staging directory, so that global checks (CSP, navigation limits, permission handler) see the whole app and
// compiled copies under dist/ are not counted twice.
const stage = mkdtempSync(join(tmpdir(), 'baton-electronegativity-'));
let exitCode = 1;
try {
  for (const entry of config.include) cpSync(join(root, entry), join(stage, entry), { recursive: true });
  const quiet = silenceConsole(); // It reports its own network look-ups (translations, Electron releases) on the console.
  let result;
  try {
    result = await electronegativity(
      {
        input: stage,
        isRelative: true,
        isVerbose: false,
        customScan: [],
        excludeFromScan: [],
        parserPlugins: [],
        electronVersionOverride: electronVersion,
      },
      false,
    );
  } finally {
    quiet.restore();
  }
  const ignored = new Set((config.ignoredChecks ?? []).map((x) => x.check));
  const findings = result.issues
    .map((i) => ({
      check: i.id,
      severity: i.severity.name,
      file: isAbsolute(i.file) ? relative(stage, i.file) : i.file.replace(/^[/\\]/, ''),
      at: `${i.location?.line ?? 0}:${i.location?.column ?? 0}`,
      description: i.description,
      sample: i.sample ?? '',
    }))
    .filter((f) => !ignored.has(f.check));
  const failing = new Set(config.failOn);
  const allowance = (f) => config.allowances.find((a) => a.check === f.check && a.file === f.file);
  const blocking = findings.filter((f) => failing.has(f.severity) && !allowance(f));
  const accepted = findings.filter((f) => failing.has(f.severity) && allowance(f));
  const unused = config.allowances.filter((a) => !accepted.some((f) => allowance(f) === a));

  for (const f of findings.filter((x) => !failing.has(x.severity)))
    console.log(`note     ${f.severity.padEnd(13)} ${f.check} ${f.file}:${f.at} — ${f.description}`);
  for (const f of accepted)
    console.log(`allowed  ${f.severity.padEnd(13)} ${f.check} ${f.file}:${f.at} — ${allowance(f).reason}`);
  for (const x of config.ignoredChecks ?? []) console.log(`ignored  ${x.check} — ${x.reason}`);
  for (const a of unused)
    console.log(`unused   allowance for ${a.check} in ${a.file}: nothing matches it any more; remove it`);
  const unparsed = result.errors.filter((e) => !e.tolerable);
  for (const e of result.errors.filter((x) => x.tolerable))
    console.log(`note     parsed ${relative(stage, e.file ?? '')} with a warning: ${e.message}`);
  for (const e of unparsed) console.log(`FAILED   could not parse ${relative(stage, e.file ?? '')}: ${e.message}`);
  for (const f of blocking)
    console.log(
      `FAILED   ${f.severity.padEnd(13)} ${f.check} ${f.file}:${f.at} — ${f.description}\n         ${f.sample}`,
    );
  const counts = ['HIGH', 'MEDIUM', 'LOW', 'INFORMATIONAL']
    .map((s) => `${findings.filter((f) => f.severity === s).length} ${s}`)
    .join(', ');
  console.log(
    `electronegativity (Electron ${electronVersion}, ${result.atomicChecks} atomic + ${result.globalChecks} global checks): ${counts}; ` +
      `${accepted.length} allowed with a reason; ${blocking.length + unparsed.length} failing`,
  );
  exitCode = blocking.length === 0 && unparsed.length === 0 ? 0 : 1;
} finally {
  rmSync(stage, { recursive: true, force: true });
}
process.exit(exitCode);

function silenceConsole() {
  const saved = { log: console.log, error: console.error, warn: console.warn };
  console.log = console.error = console.warn = () => undefined;
  return { restore: () => Object.assign(console, saved) };
}
