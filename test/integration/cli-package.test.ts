// The package as `npm pack` makes it (what a user installs): its `baton` runs from the packed files alone, the bundled
// command line with its code cache, the hook entry and the core modules the bundle loads for `serve` (docs/performance.md
// "CLI start"). The package's dependencies come from this checkout's node_modules, as an install would provide them.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir, testEnv, waitFor } from '../helpers/server.js';

interface Packed {
  files: { path: string }[];
  filename: string;
}

describe('the packed package', () => {
  const root = tempDir('baton-pack-');
  const installed = join(root, 'package');
  const bin = join(installed, 'bin', 'baton.js');
  const env = testEnv(join(root, 'home'));
  let files: string[] = [];

  const run = (args: string[], input?: string) =>
    spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8', input, timeout: 30_000 });

  beforeAll(() => {
    const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', root], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(pack.status, pack.stderr).toBe(0);
    const [packed] = JSON.parse(pack.stdout) as Packed[];
    files = packed!.files.map((f) => f.path);
    const tar = spawnSync('tar', ['-x', '-z', '-f', join(root, packed!.filename), '-C', root]);
    expect(tar.status, tar.stderr?.toString()).toBe(0);
    symlinkSync(join(ROOT, 'node_modules'), join(installed, 'node_modules'));
  }, 150_000);

  afterAll(() => {
    spawnSync('rm', ['-rf', root]);
  });

  it('holds the bundled command line, its code cache and the hook entry, and no tests or sources', () => {
    for (const f of [
      'bin/baton.js',
      'bin/package.json',
      'dist/electron/cli/baton.cjs',
      'dist/electron/cli/baton.cjs.cache',
    ])
      expect(files).toContain(f);
    expect(files).toContain('dist/electron/cli/hook.cjs');
    expect(files).toContain('dist/electron/serve-socket.js');
    // `baton serve` loads the core's bundle with its code cache (scripts/build-core.mjs); the test below serves from it.
    expect(files).toContain('dist/electron/core-bundle/core.cjs');
    expect(files).toContain('dist/electron/core-bundle/core.cjs.cache');
    expect(files.filter((f) => f.startsWith('test/') || f.endsWith('.ts') || f.endsWith('.tsx'))).toEqual([]);
  });

  it('runs --version, help and a usage error from the packed files', () => {
    const { version } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string };
    const v = run(['--version']);
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout).toBe(`baton ${version}\n`);
    const help = run(['help', 'ls']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^usage: baton ls/);
    const bad = run(['ls', '--nope']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('baton ls: ls does not take --nope');
  });

  it('a command that needs a server loads the client and says none runs; the hook entry exits 0 silently', () => {
    const dataDir = join(root, 'no-server');
    const ls = run(['ls', '--data-dir', dataDir]);
    expect(ls.status).toBe(1);
    expect(ls.stderr).toBe(
      `baton: no Baton server found for ${dataDir}: start one with \`baton serve\`, or set BATON_URL and BATON_TOKEN\n`,
    );
    const hook = spawnSync(process.execPath, [join(installed, 'dist', 'electron', 'cli', 'hook.cjs'), 'claude'], {
      env,
      encoding: 'utf8',
      input: '{"hook_event_name":"Stop"}',
    });
    expect(hook.status).toBe(0);
    expect(hook.stdout + hook.stderr).toBe('');
  });

  it('serves the background core from the packed files, and ls reaches it', async () => {
    const dataDir = join(root, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    const core = spawn(process.execPath, [bin, 'serve', '--socket', '--data-dir', dataDir], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    core.stdout.on('data', (d: Buffer) => (output += d.toString()));
    core.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((r) => core.once('exit', (code) => r(code)));
    try {
      await waitFor(
        () => output.includes('is serving') && existsSync(join(dataDir, 'server.json')),
        'the core',
        20_000,
      );
      const ls = run(['ls', '--data-dir', dataDir]);
      expect(ls.status, ls.stderr).toBe(0);
      expect(ls.stderr).toContain('0 agents running in the background core');
    } finally {
      core.kill('SIGTERM');
      await exited;
    }
  }, 60_000);
});
