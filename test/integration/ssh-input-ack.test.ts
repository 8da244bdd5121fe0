// Keys typed into a remote agent while its ssh connection is dying are neither lost nor typed twice (docs/hosts.md,
// "Keys are never lost nor typed twice"), against a real sshd. The remote agent is `cat` on a raw terminal writing
// everything it gets to a file in the host's HOME (the "remote" HOME is a temp directory of this machine, so the test
// reads the file directly): what the user typed must be exactly that file's text.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { killMarks } from '../helpers/processes.js';
import { sshdAvailable, startSshd, type TestSshd } from '../helpers/sshd.js';
import { screenText, waitFor, type ServerProcess } from '../helpers/server.js';
import { endSshMachines, localCore, stdioBridges } from './ssh-hosts-helpers.js';

/** A raw terminal (no echo, no line editing, no signal keys) and `cat` writing what it reads to got.txt. */
const CAT = ['/bin/sh', '-c', 'stty raw -echo && exec cat > got.txt'];

/** Both links of docs/hosts.md: the forwarded socket, and the stdio bridge where sshd refuses stream forwarding. */
const LINKS = [
  { link: 'a forwarded socket', config: [], bridges: 0 },
  { link: 'the stdio bridge', config: ['AllowStreamLocalForwarding no'], bridges: 1 },
];

describe.skipIf(!sshdAvailable()).each(LINKS)('keys typed into a remote agent while $link drops', (c) => {
  let sshd: TestSshd;
  let server: ServerProcess;
  let client: RpcClient;

  beforeAll(async () => {
    sshd = await startSshd({ config: c.config });
    ({ server, client } = await localCore(sshd, 'baton-ssh-input-'));
    const view = await client.call('hosts.connect', { host: 'devbox' });
    expect(view, view.message ?? '').toMatchObject({ state: 'connected' });
    expect(stdioBridges(sshd.remoteHome)).toBe(c.bridges);
  }, 60_000);

  afterAll(() => endSshMachines(sshd, server, client), 60_000);

  const hostState = async () => (await client.call('hosts.list', {})).find((h) => h.alias === 'devbox')?.state;

  /** A remote `cat` in its own folder; resolves once it is reading (its file exists). */
  async function startCat(name: string): Promise<{ runId: string; agentId: string; got: () => string }> {
    const work = join(sshd.remoteHome, name);
    mkdirSync(work, { mode: 0o700 });
    const run = await client.call('run.start', {
      name,
      agents: [{ vendor: 'shell', label: 'cat', cwd: work, host: 'devbox', command: CAT }],
    });
    const file = join(work, 'got.txt');
    await waitFor(() => existsSync(file), 'the remote cat to start');
    return { runId: run.id, agentId: run.agents[0]!.id, got: () => readFileSync(file, 'utf8') };
  }

  it('arrive exactly once and in order: typed into a frozen connection, after it died and while it reconnects', async () => {
    const { runId, agentId, got } = await startCat('frozen');
    let typed = '';
    let n = 0;
    const key = async () => {
      const k = `k${n++};`;
      typed += k;
      await client.call('agent.write', { agentId, data: k });
    };
    for (let i = 0; i < 10; i++) await key();
    await waitFor(() => got() === typed, 'the keys typed before the drop');

    // The network dies unnoticed: sshd reads nothing more, and neither end knows yet.
    const frozen = sshd.freezeConnections();
    expect(frozen.length).toBeGreaterThan(0);
    const beforeFreeze = typed;
    for (let i = 0; i < 30; i++) await key();
    // Nothing typed into the frozen connection reached the host (its sshd reads nothing).
    expect(got()).toBe(beforeFreeze);
    // The connection ends; keys go on until this side has noticed, and while it reconnects.
    killMarks(frozen);
    let typedUnnoticed = 0;
    while ((await hostState()) === 'connected' && typedUnnoticed < 5000) {
      await key();
      typedUnnoticed++;
    }
    expect(await hostState()).not.toBe('connected');
    let typedReconnecting = 0;
    while ((await hostState()) !== 'connected') {
      await key();
      typedReconnecting++;
      await new Promise((r) => setTimeout(r, 20));
    }
    for (let i = 0; i < 10; i++) await key();
    await waitFor(() => got().length >= typed.length, 'every key typed to arrive', 60_000);
    expect(got()).toBe(typed);
    expect(typedReconnecting).toBeGreaterThan(0);
    expect(await screenText(client, agentId)).not.toContain('input not delivered');
    await client.call('run.stop', { run: runId });
  }, 180_000);

  it('keeps 64 KiB while disconnected, tells the user in the pane what it dropped beyond that, and sends the rest once', async () => {
    const { runId, agentId, got } = await startCat('bounded');
    // Down, and staying down: the listener takes no new connection until it is continued.
    process.kill(sshd.pid, 'SIGSTOP');
    try {
      killMarks(sshd.freezeConnections());
      await waitFor(async () => (await hostState()) !== 'connected', 'this side to notice the drop');
      const kept = 'a'.repeat(64 * 1024);
      await client.call('agent.write', { agentId, data: `${kept}${'b'.repeat(6000)}` });
      await waitFor(async () => (await screenText(client, agentId)).includes('input not delivered'), 'the notice');
    } finally {
      process.kill(sshd.pid, 'SIGCONT');
    }
    await waitFor(async () => (await hostState()) === 'connected', 'the reconnect', 90_000);
    await waitFor(() => got().length >= 64 * 1024, 'the kept keys to arrive', 60_000);
    await waitFor(
      async () => (await screenText(client, agentId)).includes('of what you typed while disconnected was dropped'),
      'the notice of what was dropped',
    );
    expect(got()).toBe('a'.repeat(64 * 1024));
    await client.call('run.stop', { run: runId });
  }, 180_000);
});
