// A full disk never loses a run: a real `baton serve` on a small tmpfs that a test fills to the last byte. The
// user gets clear errors naming the full disk, the agent keeps answering, the last good state stays readable,
// a change made meanwhile is kept, and once space returns everything is saved and survives a restart.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, realpathSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { EventPayload } from '../../shared/contract.js';
import { ask, startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';

let root = '';
let dataDir = '';
let cantMount = '';
const servers: ServerProcess[] = [];
const clients: RpcClient[] = [];

beforeAll(() => {
  root = realpathSync(tempDir('baton-full-disk-'));
  dataDir = join(root, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  if (process.getuid?.() !== 0) {
    cantMount = 'mounting a tmpfs needs root';
    return;
  }
  try {
    // mode=0700: Baton refuses a data directory other users can write, and a fresh tmpfs is 1777.
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0700', 'tmpfs', dataDir], { stdio: 'pipe' });
  } catch (err) {
    cantMount = `cannot mount a tmpfs here: ${(err as Error).message.split('\n')[0]}`;
  }
});

afterAll(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map(stop));
  if (!cantMount) execFileSync('umount', ['-l', dataDir], { stdio: 'pipe' });
  if (root) rmSync(root, { recursive: true, force: true });
});

async function serve(): Promise<{ server: ServerProcess; client: RpcClient }> {
  const server = await startServer(dataDir, testEnv(join(root, 'home')));
  servers.push(server);
  const client = await server.connect();
  clients.push(client);
  return { server, client };
}

async function stop(server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 20_000).unref());
  if ((await Promise.race([server.exited, timeout])) === 'timeout') {
    server.child.kill('SIGKILL');
    await server.exited;
  }
}

/** Writes `path` until the file system has not one byte left; returns how many bytes it took. */
function fillDisk(path: string): number {
  const fd = openSync(path, 'a');
  let total = 0;
  try {
    for (const size of [1 << 20, 1 << 16, 1 << 12, 1 << 8, 1]) {
      const chunk = Buffer.alloc(size, 0x78);
      for (;;) {
        try {
          const n = writeSync(fd, chunk);
          total += n;
          if (n < size) break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw err;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return total;
}

function diskIsFull(): boolean {
  const probe = join(dataDir, 'probe');
  try {
    const fd = openSync(probe, 'w');
    try {
      writeSync(fd, Buffer.alloc(1));
      return false;
    } finally {
      closeSync(fd);
      rmSync(probe, { force: true });
    }
  } catch (err) {
    rmSync(probe, { force: true });
    return (err as NodeJS.ErrnoException).code === 'ENOSPC';
  }
}

interface ManifestOnDisk {
  id: string;
  name: string;
  agents: unknown[];
  lastSnapshot: { id: string } | null;
}

function manifestOnDisk(runId: string): ManifestOnDisk {
  return JSON.parse(readFileSync(join(dataDir, 'runs', runId, 'run.json'), 'utf8')) as ManifestOnDisk;
}

describe('a full disk', () => {
  it('refuses saves with a clear error, keeps the agents and the last good state, and saves again once space returns', async (ctx) => {
    if (cantMount) {
      process.stdout.write(`full-disk test skipped: ${cantMount}\n`);
      ctx.skip();
    }
    const cwd = join(root, 'work');
    mkdirSync(cwd);
    const { server, client } = await serve();
    const warnings: EventPayload<'agent.warning'>[] = [];
    client.on('agent.warning', (w) => warnings.push(w));

    const run = await client.call('run.start', { name: 'full', agents: [{ vendor: 'shell', label: 'sh', cwd }] });
    const sh = run.agents[0]!;
    await ask(client, sh.id, 'echo ready-$((6*7))', 'ready-42');
    const good = await client.call('run.snapshot', { run: 'full' });

    const filler = join(dataDir, 'filler');
    expect(fillDisk(filler)).toBeGreaterThan(0);
    expect(diskIsFull()).toBe(true);

    // Saving now fails, and says why and where.
    const snapshotError = await client.call('run.snapshot', { run: 'full' }).then(
      () => null,
      (err: Error) => err,
    );
    expect(snapshotError?.message).toMatch(
      /^could not save run 'full': the disk is full \(.*\/runs\/run_[0-9a-z]+\): free some space; Baton keeps running and will save again$/,
    );
    const startError = await client.call('run.start', { name: 'second', agents: [{ vendor: 'shell', cwd }] }).then(
      () => null,
      (err: Error) => err,
    );
    expect(startError?.message).toMatch(
      /^could not create run 'second': the disk is full \(.*\/runs\/run_[0-9a-z]+\): free some space, then try again$/,
    );

    // A change made meanwhile is kept in memory; the user is told once that it is not on disk yet.
    const renamed = await client.call('run.rename', { run: 'full', name: 'full-renamed' });
    expect(renamed.name).toBe('full-renamed');

    // An agent added, then exiting on its own: its exit is recorded (in memory) and the failed exit snapshot
    // is caught, where before a rejected save there ended the whole process.
    const added = await client.call('agent.add', {
      run: 'full-renamed',
      agent: { vendor: 'shell', label: 'sh2', cwd },
    });
    const sh2 = added.agents.find((a) => a.label === 'sh2')!;
    expect(sh2.status).toBe('running');
    await client.call('agent.send', { agentId: sh2.id, text: 'exit 3' });
    await waitFor(
      async () =>
        (await client.call('run.get', { run: 'full-renamed' })).agents.find((a) => a.id === sh2.id)?.status ===
        'exited',
      'sh2 to exit',
    );
    expect(warnings.map((w) => w.message)).toEqual([snapshotError?.message]);
    expect(warnings[0]?.runId).toBe(run.id);

    // The agent still answers, the server is alive, and the last good state is on disk, whole, with no temp files.
    const n = 1000 + Math.floor(Math.random() * 9000);
    await ask(client, sh.id, `echo hi-$((${n}+1))`, `hi-${n + 1}`);
    expect(server.child.exitCode).toBeNull();
    expect((await client.call('host.info', {})).dataDir).toBe(dataDir);
    expect(manifestOnDisk(run.id)).toMatchObject({ id: run.id, name: 'full', lastSnapshot: { id: good.id } });
    expect(readdirSync(join(dataDir, 'runs'))).toEqual([run.id]);
    expect(readdirSync(join(dataDir, 'runs', run.id)).filter((f) => f.includes('.tmp-'))).toEqual([]);
    expect(readdirSync(join(dataDir, 'runs', run.id, 'screens'))).toEqual([good.id]);
    expect(manifestOnDisk(run.id).agents).toHaveLength(1);

    // Space returns: the next save writes everything that waited, in order.
    rmSync(filler);
    const after = await client.call('run.snapshot', { run: 'full-renamed' });
    expect(manifestOnDisk(run.id)).toMatchObject({ name: 'full-renamed', lastSnapshot: { id: after.id } });
    expect(server.output()).toContain("run 'full-renamed' is saved again");

    await stop(server);
    const fresh = await serve();
    const runs = await fresh.client.call('run.list', {});
    expect(runs.map((r) => ({ id: r.id, name: r.name, agentCount: r.agentCount }))).toEqual([
      { id: run.id, name: 'full-renamed', agentCount: 2 },
    ]);
    const whole = await fresh.client.call('run.get', { run: 'full-renamed' });
    expect(whole.agents.map((a) => [a.label, a.status, a.exitCode])).toEqual([
      ['sh', 'stopped', expect.any(Number)],
      ['sh2', 'exited', 3],
    ]);
    // The history line written while the disk was full is there, in its place.
    const history = await fresh.client.call('run.events', { run: 'full-renamed' });
    const at = (snapshotId: string) => history.findIndex((e) => e.type === 'snapshot' && e.snapshotId === snapshotId);
    const renamedAt = history.findIndex((e) => e.type === 'renamed');
    expect(at(good.id)).toBeGreaterThanOrEqual(0);
    expect(renamedAt).toBeGreaterThan(at(good.id));
    expect(at(after.id)).toBeGreaterThan(renamedAt);
    const screens = await fresh.client.call('run.screens', { run: 'full-renamed' });
    expect(screens.snapshotId).not.toBe(good.id);
    expect(screens.screens[0]?.text).toContain(`hi-${n + 1}`);
  }, 120_000);
});
