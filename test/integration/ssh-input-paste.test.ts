// Input reaches an agent whole and in order when its PTY cannot take it all at once (docs/performance.md, "Remote echo
// tail (echo15)"): the cores write typed input to the PTY in the task that received it (pty-writer.ts), and what the
// kernel's buffer refuses (a long paste into an agent that is not reading yet) waits, in order, ahead of the keys typed
// after it. Against a real sshd for the remote agent (its host's core writes the PTY) and a local agent beside it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { sshdAvailable, startSshd, type TestSshd } from '../helpers/sshd.js';
import { tempDir, waitFor, type ServerProcess } from '../helpers/server.js';
import { endSshMachines, localCore } from './ssh-hosts-helpers.js';

/** A raw terminal that reads nothing until the file `go` exists, then `cat`s everything to got.txt. */
const LATE_CAT = [
  '/bin/sh',
  '-c',
  'stty raw -echo && : > started && while [ ! -e go ]; do sleep 0.05; done; exec cat > got.txt',
];

/** 256 KiB of printable text in lines of 100: far more than a PTY holds for a reader that is not reading (~64 KiB on Linux). */
const PASTE = Array.from({ length: 256 * 1024 }, (_, i) => String.fromCharCode(33 + ((i * 7) % 90)))
  .join('')
  .replace(/(.{99})./g, '$1\n');

describe.skipIf(!sshdAvailable())('a paste larger than the PTY takes, then keys, into an agent not reading yet', () => {
  let sshd: TestSshd;
  let server: ServerProcess;
  let client: RpcClient;

  beforeAll(async () => {
    sshd = await startSshd();
    ({ server, client } = await localCore(sshd, 'baton-ssh-paste-'));
    const view = await client.call('hosts.connect', { host: 'devbox' });
    expect(view, view.message ?? '').toMatchObject({ state: 'connected' });
  }, 60_000);

  afterAll(() => endSshMachines(sshd, server, client), 60_000);

  it.each([
    { where: 'on the host', host: 'devbox' as const },
    { where: 'on this machine', host: undefined },
  ])(
    'all of it arrives $where, in the order typed, exactly once',
    async ({ host }) => {
      const work = host ? join(sshd.remoteHome, 'paste') : tempDir('baton-paste-local-');
      mkdirSync(work, { recursive: true, mode: 0o700 });
      const run = await client.call('run.start', {
        name: `paste-${host ?? 'local'}`,
        agents: [{ vendor: 'shell', label: 'late-cat', cwd: work, command: LATE_CAT, ...(host ? { host } : {}) }],
      });
      const agentId = run.agents[0]!.id;
      await waitFor(() => existsSync(join(work, 'started')), 'the agent to start (not reading yet)');
      let typed = PASTE;
      await client.call('agent.write', { agentId, data: PASTE });
      for (let i = 0; i < 40; i++) {
        const key = `k${i};`;
        typed += key;
        await client.call('agent.write', { agentId, data: key });
      }
      writeFileSync(join(work, 'go'), '');
      const got = () => (existsSync(join(work, 'got.txt')) ? readFileSync(join(work, 'got.txt'), 'utf8') : '');
      await waitFor(() => got().length >= typed.length, 'everything typed to reach the agent', 60_000);
      // Give a doubled piece time to show up after the last one.
      await new Promise((r) => setTimeout(r, 300));
      expect(got().length).toBe(typed.length);
      expect(got() === typed).toBe(true);
      await client.call('run.stop', { run: run.id });
    },
    120_000,
  );
});
