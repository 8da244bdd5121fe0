// Lists the tests that failed and then passed at their retry (CI retries a failed test once: vitest.config.ts), with
// what their first attempt said, in test-results/flaky.md. Vitest's own output shows such a test as passed; each one
// is a race still to find (a page that lost an event on load was found this way), so CI prints this list at its end.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Reporter, TestCase } from 'vitest/node';

export const FLAKY_REPORT = 'test-results/flaky.md';
const ansi = new RegExp(String.raw`\u001b\[[0-9;]*[A-Za-z]`, 'g');

export default class FlakyReporter implements Reporter {
  private readonly flaky: string[] = [];

  onTestRunStart(): void {
    this.flaky.length = 0;
  }

  onTestCaseResult(test: TestCase): void {
    const diagnostic = test.diagnostic();
    if (!diagnostic?.flaky) return;
    // A test that passed at its retry still reports its first attempt's errors.
    const errors = (test.result().errors ?? []).map((e) => e.message.replace(ansi, ''));
    const said = errors.map((e) => `  - ${e.split('\n').slice(0, 6).join('\n    ')}`).join('\n');
    this.flaky.push(`- ${test.module.moduleId.replace(`${process.cwd()}/`, '')} > ${test.fullName}\n${said}`);
  }

  onTestRunEnd(): void {
    mkdirSync(dirname(FLAKY_REPORT), { recursive: true });
    const text =
      this.flaky.length === 0
        ? 'No test needed its retry.\n'
        : `${this.flaky.length} test(s) failed, then passed at their retry:\n\n${this.flaky.join('\n')}\n`;
    writeFileSync(FLAKY_REPORT, text);
  }
}
