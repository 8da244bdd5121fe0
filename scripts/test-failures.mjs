// Prints what failed in a saved `npm test` log, for CI: the compat and soak tables come after npm test, so a CI
// log's tail would otherwise show "npm test failed" without saying which test, or why.
// Usage: node scripts/test-failures.mjs <log>
import { readFileSync } from 'node:fs';

const MAX_LINES = 200;
const ansi = new RegExp(String.raw`\u001b\[[0-9;]*[A-Za-z]`, 'g');

const path = process.argv[2];
if (!path) {
  console.error('usage: node scripts/test-failures.mjs <npm test log>');
  process.exit(2);
}
const lines = readFileSync(path, 'utf8').replace(ansi, '').split('\n');

// Vitest's summary: "⎯⎯ Failed Suites N ⎯⎯" and/or "⎯⎯ Failed Tests N ⎯⎯" blocks, then " Test Files  …".
const first = lines.findIndex((line) => /Failed (Tests|Suites) \d+/.test(line));
const summary = lines.findIndex((line, index) => index > first && /^\s*Test Files\s/.test(line));
const failedNames = lines.filter((line) => /^\s*(FAIL|×)\s/.test(line));

if (first >= 0) {
  const end = summary >= 0 ? summary + 4 : lines.length;
  const block = lines.slice(first, end);
  console.log(block.slice(0, MAX_LINES).join('\n'));
  if (block.length > MAX_LINES) console.log(`… ${block.length - MAX_LINES} more lines in ${path}`);
} else if (failedNames.length > 0) {
  console.log(failedNames.join('\n'));
} else {
  // No test summary: the build, typecheck or lint step failed before vitest ran (or vitest itself crashed).
  console.log(lines.slice(-80).join('\n'));
}
