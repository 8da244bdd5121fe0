// A server that refuses stream forwarding (`AllowStreamLocalForwarding no`): Baton reaches the remote core through
// `baton connect --stdio` over ssh instead of a forwarded socket (docs/hosts.md, "The link"), and remote agents work
// the same, through a dropped connection too.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { sshdAvailable, startSshd, type TestSshd } from '../helpers/sshd.js';
import { screenText, waitFor, type ServerProcess } from '../helpers/server.js';
import { endSshMachines, localCore, stdioBridgePids, stdioBridges } from './ssh-hosts-helpers.js';

describe.skipIf(!sshdAvailable())('a host whose sshd refuses stream forwarding', () => {
  let sshd: TestSshd;
  let server: ServerProcess;
  let client: RpcClient;

  beforeAll(async () => {
    sshd = await startSshd({ config: ['AllowStreamLocalForwarding no'] });
    ({ server, client } = await localCore(sshd, 'baton-ssh-nofwd-'));
  }, 60_000);

  afterAll(() => endSshMachines(sshd, server, client), 60_000);

  it('runs a remote agent through the stdio bridge, and reconnects through it after a drop', async () => {
    const view = await client.call('hosts.connect', { host: 'devbox' });
    expect(view, view.message ?? '').toMatchObject({ alias: 'devbox', state: 'connected' });
    expect(stdioBridges(sshd.remoteHome)).toBe(1);
    const work = join(sshd.remoteHome, 'work');
    mkdirSync(work, { mode: 0o700 });
    const run = await client.call('run.start', {
      name: 'no-forwarding',
      agents: [
        { vendor: 'shell', label: 'there', cwd: work, host: 'devbox', command: ['/bin/bash', '--noprofile', '--norc'] },
      ],
    });
    const agent = run.agents[0]!;
    await client.call('agent.write', { agentId: agent.id, data: 'echo "one=$((40 + 2))"\r' });
    await waitFor(async () => (await screenText(client, agent.id)).includes('one=42'), 'the remote echo');
    // The connection drops; this side comes back through the bridge again, and the agent is the same. Until this side
    // has noticed the drop the host still shows as connected: wait for the new bridge before typing.
    const oldBridges = stdioBridgePids(sshd.remoteHome);
    expect(sshd.killConnections()).toBeGreaterThan(0);
    await waitFor(
      () => stdioBridgePids(sshd.remoteHome).some((pid) => !oldBridges.includes(pid)),
      'a new stdio bridge',
      60_000,
    );
    await waitFor(
      async () => (await client.call('hosts.list', {})).find((h) => h.alias === 'devbox')?.state === 'connected',
      'devbox to be connected again',
      60_000,
    );
    await client.call('agent.write', { agentId: agent.id, data: 'echo "two=$((40 + 3))"\r' });
    await waitFor(async () => (await screenText(client, agent.id)).includes('two=43'), 'the echo after the drop');
    expect(stdioBridges(sshd.remoteHome)).toBe(1);
    await client.call('run.stop', { run: run.id });
  }, 180_000);
});
