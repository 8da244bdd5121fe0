// Hosts Baton cannot use as they are, against a real sshd on 127.0.0.1 (test/helpers/sshd.ts): one whose key is not
// known, one without Node, and one running an older Baton core, replaced only after it snapshotted its runs
// (docs/hosts.md). The journey on a host that works is ssh-hosts.test.ts.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { pathWithoutNode, sshdAvailable, startSshd, type TestSshd } from '../helpers/sshd.js';
import { startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';
import { isRunning } from '../helpers/core.js';
import { BASH, remoteCore, VERSION } from './ssh-hosts-helpers.js';

describe.skipIf(!sshdAvailable())('hosts that cannot be used', () => {
  let sshd: TestSshd;
  let noNode: TestSshd;
  let server: ServerProcess;
  let client: RpcClient;

  beforeAll(async () => {
    sshd = await startSshd();
    const dir = tempDir('baton-ssh-bad-');
    noNode = await startSshd({ path: pathWithoutNode(dir), known: 'nonode', unknown: 'nonode-stranger' });
    const config = join(dir, 'ssh_config');
    writeFileSync(config, sshd.config + noNode.config, { mode: 0o600 });
    server = await startServer(join(dir, 'data'), testEnv(join(dir, 'home'), { BATON_SSH_CONFIG: config }));
    client = await server.connect();
  }, 60_000);

  afterAll(async () => {
    client?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
    sshd?.stop();
    noNode?.stop();
  });

  it('refuses a host whose key is not in known_hosts, and says what to do', async () => {
    const view = await client.call('hosts.connect', { host: 'stranger' });
    expect(view.state).toBe('unreachable');
    expect(view.message).toMatch(/host key of stranger is not in your known_hosts/);
    expect(view.message).toMatch(/run `ssh stranger` in a terminal once/);
    expect(existsSync(join(sshd.remoteHome, '.baton'))).toBe(false);
    const run = await client.call('run.start', {
      name: 'refused',
      agents: [{ vendor: 'shell', cwd: '/tmp', host: 'stranger' }],
    });
    expect(run.agents[0]).toMatchObject({
      status: 'failed',
      warning: expect.stringMatching(/known_hosts/) as unknown as string,
    });
  }, 60_000);

  it('says so when the host has no Node', async () => {
    const view = await client.call('hosts.connect', { host: 'nonode' });
    expect(view.state).toBe('needs-setup');
    expect(view.message).toMatch(/^check Node: Node\.js is not installed on nonode .*install Node 20 or later there/);
    expect(existsSync(join(noNode.remoteHome, '.baton', 'server'))).toBe(false);
  }, 60_000);
});

describe.skipIf(!sshdAvailable())('a host running an older Baton core', () => {
  it('replaces it only after it snapshotted its runs, and the new core brings them back', async () => {
    const sshd = await startSshd();
    const dir = tempDir('baton-ssh-old-');
    const env = testEnv(join(dir, 'home'), { BATON_SSH_CONFIG: sshd.configFile });
    const work = join(sshd.remoteHome, 'work');
    mkdirSync(work, { mode: 0o700 });
    let server = await startServer(join(dir, 'first'), env);
    let client = await server.connect();
    try {
      // First use installs this version; its core is then stopped, and an older Baton made beside it runs instead.
      expect((await client.call('hosts.connect', { host: 'devbox' })).state).toBe('connected');
      client.close();
      server.child.kill('SIGTERM');
      await server.exited;
      let remote = await remoteCore(sshd);
      const stoppedPid = (await remote.call('core.info', {})).pid;
      await remote.call('core.shutdown', { resumeOnStart: false });
      remote.close();
      await waitFor(() => !isRunning(stoppedPid), 'the first remote core to stop');
      const servers = join(sshd.remoteHome, '.baton', 'server');
      const older = join(servers, '0.0.1');
      mkdirSync(older);
      cpSync(join(servers, VERSION, 'bin'), join(older, 'bin'), { recursive: true });
      cpSync(join(servers, VERSION, 'dist'), join(older, 'dist'), { recursive: true });
      symlinkSync(join(servers, VERSION, 'node_modules'), join(older, 'node_modules'));
      const pkg = JSON.parse(readFileSync(join(servers, VERSION, 'package.json'), 'utf8')) as Record<string, unknown>;
      writeFileSync(join(older, 'package.json'), JSON.stringify({ ...pkg, version: '0.0.1' }));
      spawn(
        process.execPath,
        [join(older, 'bin', 'baton.js'), 'serve', '--socket', '--data-dir', join(sshd.remoteHome, '.baton')],
        { env: { HOME: sshd.remoteHome, PATH: process.env.PATH ?? '/usr/bin:/bin' }, detached: true, stdio: 'ignore' },
      ).unref();
      remote = await waitFor(async () => {
        const c = await remoteCore(sshd);
        if ((await c.call('core.info', {})).version === '0.0.1') return c;
        c.close();
        return undefined;
      }, 'the older core to serve');
      const oldRun = await remote.call('run.start', {
        name: 'on-the-old-core',
        agents: [{ vendor: 'shell', label: 'old', cwd: work, command: BASH }],
      });
      expect(oldRun.lastSnapshot).toBeNull();
      remote.close();

      // A Baton of this version connects: the older core snapshots its runs and gives way; the new one resumes them.
      server = await startServer(join(dir, 'second'), env);
      client = await server.connect();
      expect((await client.call('hosts.connect', { host: 'devbox' })).state).toBe('connected');
      remote = await remoteCore(sshd);
      expect((await remote.call('core.info', {})).version).toBe(VERSION);
      const after = await waitFor(async () => {
        const run = await remote.call('run.get', { run: 'on-the-old-core' });
        return run.agents[0]?.status === 'running' ? run : undefined;
      }, 'the old run to run again on the new core');
      expect(after.lastSnapshot).not.toBeNull();
      expect(after.id).toBe(oldRun.id);
      await remote.call('core.shutdown', { resumeOnStart: false });
      remote.close();
    } finally {
      client.close();
      server.child.kill('SIGTERM');
      await server.exited;
      sshd.stop();
    }
  }, 180_000);
});
