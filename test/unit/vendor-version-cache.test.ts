// The vendor CLIs' versions kept across cores (vendors/kit/version-cache.ts): the next core's `host.info` does not
// run a CLI whose binary has not changed, and runs it again once it has (an upgrade), giving the new version.
import { chmod, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VersionCache } from '../../electron/core/vendors/kit/version-cache.js';
import { createVendors } from '../../electron/core/vendors/registry.js';

let tmp: string;
let bin: string;
let runs: string;
let env: Record<string, string>;

/** A Claude CLI that answers `--version` with `version` and notes each run in `runs`. */
const install = async (version: string) => {
  await writeFile(bin, `#!/bin/sh\necho ran >> '${runs}'\necho '${version} (Claude Code)'\n`);
  await chmod(bin, 0o755);
};
const timesRun = () =>
  readFile(runs, 'utf8').then(
    (t) => t.split('\n').filter(Boolean).length,
    () => 0,
  );
/** A new core's answer: its own vendors, the data directory's cache file. */
const detectClaude = async () =>
  (await createVendors().detect(env, new VersionCache(join(tmp, 'vendor-versions.json')))).find(
    (v) => v.vendor === 'claude',
  );

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-versions-')));
  bin = join(tmp, 'claude');
  runs = join(tmp, 'runs.log');
  env = { HOME: tmp, PATH: '/usr/bin:/bin', BATON_CLAUDE_BIN: bin };
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('vendor versions across cores', () => {
  it('the next core answers without running an unchanged CLI, and runs it again after an upgrade', async () => {
    await install('2.0.1');
    expect((await detectClaude())?.version).toBe('2.0.1 (Claude Code)');
    expect(await timesRun()).toBe(1);

    expect((await detectClaude())?.version).toBe('2.0.1 (Claude Code)');
    expect(await timesRun()).toBe(1);

    await install('2.0.10');
    expect((await detectClaude())?.version).toBe('2.0.10 (Claude Code)');
    expect(await timesRun()).toBe(2);
  });

  it('a damaged cache file is ignored: the CLI is asked', async () => {
    await install('2.0.1');
    await writeFile(join(tmp, 'vendor-versions.json'), '{"v":1,"bins":{"x":{"stamp":1}}}');
    expect((await detectClaude())?.version).toBe('2.0.1 (Claude Code)');
    expect(await timesRun()).toBe(1);
  });
});
