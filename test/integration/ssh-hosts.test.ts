// Remote hosts against a real sshd on 127.0.0.1 (test/helpers/sshd.ts), through the system's ssh with the test's
// own config, keys and known_hosts (docs/hosts.md). The "remote" Baton is installed by the test's own first use into
// a temp HOME of the sshd sessions, and its agents run in that host's own background core.
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { AgentAttention, AgentView } from '../../shared/contract.js';
import { sshdAvailable, startSshd, type TestSshd } from '../helpers/sshd.js';
import {
  agentByLabel,
  FAKES,
  screenText,
  startServer,
  tempDir,
  testEnv,
  waitFor,
  type ServerProcess,
} from '../helpers/server.js';
import { isRunning, runCli } from '../helpers/core.js';
import {
  BASH,
  endSshMachines,
  remoteCore,
  remoteRunOf,
  stdioBridges,
  streamTail,
  VERSION,
} from './ssh-hosts-helpers.js';

describe.skipIf(!sshdAvailable())('agents on a remote host over ssh', () => {
  let sshd: TestSshd;
  let server: ServerProcess;
  let client: RpcClient;
  let localDir: string;
  let remoteDir: string;
  let env: Record<string, string>;
  let dataDir: string;

  beforeAll(async () => {
    // The host has the fake Claude (which runs the hooks its core passes it).
    sshd = await startSshd({ env: { BATON_CLAUDE_BIN: join(FAKES, 'claude.mjs') } });
    const dir = tempDir('baton-ssh-');
    localDir = join(dir, 'local-work');
    mkdirSync(localDir);
    remoteDir = join(sshd.remoteHome, 'work');
    mkdirSync(remoteDir, { mode: 0o700 });
    env = testEnv(join(dir, 'home'), { BATON_SSH_CONFIG: sshd.configFile });
    dataDir = join(dir, 'data');
    server = await startServer(dataDir, env);
    client = await server.connect();
  }, 60_000);

  afterAll(() => endSshMachines(sshd, server, client), 60_000);

  it('lists the hosts of the ssh config, and installs its core on a host at first use', async () => {
    const before = await client.call('hosts.list', {});
    expect(before[0]).toMatchObject({ alias: null, state: 'local' });
    expect(before.find((h) => h.alias === 'devbox')).toMatchObject({
      source: 'config',
      state: 'idle',
      target: expect.stringMatching(/@127\.0\.0\.1:\d+$/) as unknown as string,
    });
    const progress: string[] = [];
    client.on('host.changed', (h) => h.message && progress.push(h.message));
    const view = await client.call('hosts.connect', { host: 'devbox' });
    expect(view, view.message ?? '').toMatchObject({ alias: 'devbox', state: 'connected', home: sshd.remoteHome });
    expect(existsSync(join(sshd.remoteHome, '.baton', 'server', VERSION, 'bin', 'baton.js'))).toBe(true);
    expect(progress.some((m) => m.startsWith('copying Baton'))).toBe(true);
    // Vendor detection happens on the host: its own core says which CLIs it has.
    const vendors = await client.call('hosts.vendors', { host: 'devbox' });
    expect(vendors.find((v) => v.vendor === 'shell')?.found).toBe(true);
    // The remote core listens on its user-only socket in that host's data directory.
    const remote = await remoteCore(sshd);
    expect((await remote.call('core.info', {})).version).toBe(VERSION);
    remote.close();
    // This core reaches it through a socket OpenSSH forwards there, user-only like the ssh directory it is in: no
    // `baton connect --stdio` relays the bytes.
    const forwarded = readdirSync(join(dataDir, 'ssh')).filter((f) => /^core-[0-9a-f]+\.sock$/.test(f));
    expect(forwarded).toHaveLength(1);
    expect(statSync(join(dataDir, 'ssh', forwarded[0]!)).mode & 0o077).toBe(0);
    expect(stdioBridges(sshd.remoteHome)).toBe(0);
  }, 180_000);

  let agents: AgentView[] = [];
  let runId = '';

  it('runs one local and two remote agents in one run, each where it belongs', async () => {
    const run = await client.call('run.start', {
      name: 'mixed',
      agents: [
        { vendor: 'shell', label: 'here', cwd: localDir, command: BASH },
        { vendor: 'shell', label: 'there-a', cwd: remoteDir, command: BASH, host: 'devbox' },
        { vendor: 'shell', label: 'there-b', cwd: remoteDir, command: BASH, host: 'devbox' },
      ],
    });
    runId = run.id;
    agents = run.agents;
    expect(agents.map((a) => [a.label, a.status, a.host ?? null])).toEqual([
      ['here', 'running', null],
      ['there-a', 'running', 'devbox'],
      ['there-b', 'running', 'devbox'],
    ]);
    for (const a of agents) await client.call('agent.write', { agentId: a.id, data: 'echo "home=$HOME pwd=$PWD"\r' });
    const here = agentByLabel(agents, 'here');
    const a = agentByLabel(agents, 'there-a');
    const b = agentByLabel(agents, 'there-b');
    await waitFor(
      async () => (await screenText(client, a.id)).includes(`home=${sshd.remoteHome} pwd=${remoteDir}`),
      'a',
    );
    await waitFor(async () => (await screenText(client, b.id)).includes(`pwd=${remoteDir}`), 'b');
    await waitFor(async () => (await screenText(client, here.id)).includes(`home=${env.HOME} pwd=${localDir}`), 'here');
    // The remote agents are the remote core's own: its run is named after this run's id, its agents by label.
    const remote = await remoteCore(sshd);
    const there = await remoteRunOf(remote, runId);
    expect(there.agents.map((x) => [x.label, x.status])).toEqual([
      ['there-a', 'running'],
      ['there-b', 'running'],
    ]);
    remote.close();
    const hosts = await client.call('hosts.list', {});
    expect(hosts.find((h) => h.alias === 'devbox')).toMatchObject({ state: 'connected', liveAgents: 2 });
  }, 60_000);

  it("lists a host's folders through its own core, for the working-directory picker", async () => {
    mkdirSync(join(remoteDir, 'sub', 'deeper'), { recursive: true });
    writeFileSync(join(remoteDir, 'a-file.txt'), 'not a folder');
    symlinkSync(join(remoteDir, 'sub'), join(remoteDir, 'linked'));
    const home = await client.call('hosts.folders', { host: 'devbox' });
    // The home of the sessions there, not this machine's: hidden folders after the others.
    expect(home).toMatchObject({ path: sshd.remoteHome, home: sshd.remoteHome, truncated: false });
    expect(home.folders.indexOf('work')).toBeGreaterThanOrEqual(0);
    expect(home.folders.indexOf('.baton')).toBeGreaterThan(home.folders.indexOf('work'));
    const work = await client.call('hosts.folders', { host: 'devbox', path: '~/work' });
    expect(work).toMatchObject({ path: remoteDir, parent: sshd.remoteHome, folders: ['linked', 'sub'] });
    // Names are data in a JSON message, never a command: a path that is not there is refused by that core.
    await expect(
      client.call('hosts.folders', { host: 'devbox', path: join(remoteDir, 'nope; touch /tmp/x') }),
    ).rejects.toThrow(/there is no folder .*nope; touch/);
    await expect(client.call('hosts.folders', { host: 'devbox', path: 'relative/dir' })).rejects.toThrow(/absolute/);
    // This machine's own folders, for a web page (no native picker there).
    const here = await client.call('hosts.folders', { host: null, path: localDir });
    expect(here).toMatchObject({ path: localDir, folders: [] });
  }, 60_000);

  it('lists hosts and starts an agent on a host from the command line, ~ being that host’s home', async () => {
    const cli = { ...env, BATON_URL: server.url, BATON_TOKEN: server.token };
    const hosts = await runCli(['hosts'], cli);
    expect(hosts.code, hosts.stderr).toBe(0);
    expect(hosts.stdout).toMatch(/^this machine: local/m);
    expect(hosts.stdout).toMatch(/^devbox \(\S+@127\.0\.0\.1:\d+\): connected, 2 live agents$/m);
    const started = await runCli(['start', 'from-cli', '--agent', 'shell:far@devbox:~/work', '--json'], cli);
    expect(started.code, started.stderr).toBe(0);
    const run = JSON.parse(started.stdout) as { agents: AgentView[] };
    expect(run.agents[0]).toMatchObject({ label: 'far', host: 'devbox', cwd: remoteDir, status: 'running' });
    const stopped = await runCli(['delete', 'from-cli'], cli);
    expect(stopped.code, stopped.stderr).toBe(0);
    // Its run on the host went with it.
    const remote = await remoteCore(sshd);
    const localId = (JSON.parse(started.stdout) as { id: string }).id;
    expect((await remote.call('run.list', {})).some((r) => r.name === localId)).toBe(false);
    remote.close();
  }, 60_000);

  it('relays a remote Claude agent’s state from its hooks on its host (not inferred here), and its cost from there', async () => {
    const run = await client.call('run.start', {
      name: 'remote-claude',
      agents: [{ vendor: 'claude', label: 'far-claude', cwd: remoteDir, host: 'devbox' }],
    });
    const agent = run.agents[0]!;
    expect(agent).toMatchObject({ host: 'devbox', status: 'running' });
    const states: AgentAttention[] = [];
    client.on('agent.state', (e) => e.agentId === agent.id && states.push(e.attention));
    const stateIs = (state: AgentAttention['state']) =>
      waitFor(async () => {
        const now = (await client.call('run.get', { run: run.id })).agents[0]!.attention;
        return now.state === state ? now : undefined;
      }, `the remote agent to be ${state}`);
    await waitFor(async () => (await screenText(client, agent.id)).includes('❯'), 'the prompt');
    expect((await stateIs('idle')).source).toBe('hooks');

    await client.call('agent.send', { agentId: agent.id, text: 'remember the number 5' });
    expect(await stateIs('waiting')).toMatchObject({ inferred: false, source: 'hooks', episode: 1 });
    expect(states.some((s) => s.state === 'working' && !s.inferred)).toBe(true);
    await client.call('agent.send', { agentId: agent.id, text: 'please run `ls`' });
    expect(await stateIs('asking')).toMatchObject({
      inferred: false,
      episode: 2,
      asks: 'Claude needs your permission to use Bash',
    });
    // The run's summary counts it, as for a local agent.
    expect((await client.call('run.list', {})).find((r) => r.id === run.id)).toMatchObject({ needYou: 1 });
    // It is the host's own view of its agent.
    const remote = await remoteCore(sshd);
    const remoteRun = await remoteRunOf(remote, run.id);
    expect(remoteRun.agents[0]!.attention).toMatchObject({ state: 'asking', inferred: false, episode: 2 });
    // What it cost is summed on its host, where its transcripts are: this side says the same, not "gone".
    const thereCost = (await remote.call('run.cost', { run: remoteRun.id })).agents[0]!;
    expect(thereCost.tokens?.total).toBeGreaterThan(0);
    const hereCost = (await client.call('run.cost', { run: run.id })).agents[0]!;
    expect(hereCost).toMatchObject({
      label: 'far-claude',
      tokens: thereCost.tokens,
      usd: thereCost.usd,
      partial: false,
      note: thereCost.note,
    });
    // The run's summary too (a list that cannot wait for the host leaves it out, and says so by cost.changed).
    const listed = await waitFor(
      async () => (await client.call('run.list', {})).find((r) => r.id === run.id)?.cost,
      'the run list to carry the remote cost',
    );
    expect(listed).toMatchObject({ tokens: thereCost.tokens!.total });
    remote.close();
    await client.call('run.stop', { run: run.id });
    await client.call('run.delete', { run: run.id });
  }, 90_000);

  it('gives a slow visible pane every byte of a remote flood many times its ring, none replaced by a screen', async () => {
    const b = agentByLabel(agents, 'there-b');
    let end = -1;
    let resets = 0;
    let gaps = 0;
    let tail = '';
    const stream = await client.attach(
      b.id,
      { visible: true },
      {
        onData: (data, offset) => {
          if (end >= 0 && offset !== end) gaps++;
          end = offset + data.length;
          tail = (tail + Buffer.from(data).toString('latin1')).slice(-64);
        },
        onReset: (screen) => {
          resets++;
          // A screen standing in for the bytes: the end may be on it (the test then fails on the count, not a wait).
          if (screen.includes('SLOW-42-DONE')) tail = 'SLOW-42-DONE';
        },
      },
    );
    // The attach itself starts from the screen (no offset was given); from here on, only bytes may come.
    const startResets = resets;
    // A page that draws slowly: it acknowledges what it has only every 40 ms, while the remote agent writes 6 MB.
    const slowPage = setInterval(() => end >= 0 && stream.ack(end), 40);
    try {
      await client.call('agent.write', {
        agentId: b.id,
        data: "head -c 6000000 /dev/zero | tr '\\0' x; echo; echo SLOW-$((40 + 2))-DONE\r",
      });
      await waitFor(() => tail.includes('SLOW-42-DONE'), 'the end of the flood in the slow pane', 120_000);
    } finally {
      clearInterval(slowPage);
      stream.detach();
    }
    // The remote PTY waited for this pane: its output came whole, in order, with no screen standing in for a gap.
    expect({ resets: resets - startResets, gaps }).toEqual({ resets: 0, gaps: 0 });
  }, 150_000);

  it('keeps the remote agents running when the ssh connection is killed mid-flood; panes continue byte-exact', async () => {
    const a = agentByLabel(agents, 'there-a');
    const remote = await remoteCore(sshd);
    const remotePid = agentByLabel((await remoteRunOf(remote, runId)).agents, 'there-a').pid;
    await client.call('agent.write', {
      agentId: a.id,
      // About 450 KB over a few seconds: the kill lands mid-flood, and what is written while this side is away stays
      // within the remote terminal's 1 MiB ring (beyond it, a pane gets a reset, as a local one does).
      data: 'for i in $(seq 1 25000); do echo "flood line $i"; (( i % 500 )) || sleep 0.1; done; echo FLOOD-$((40 + 2))-DONE\r',
    });
    const states: string[] = [];
    const off = client.on('host.changed', (h) => h.alias === 'devbox' && states.push(h.state));
    await waitFor(async () => (await screenText(client, a.id)).includes('flood line'), 'the flood to start');
    expect(sshd.killConnections()).toBeGreaterThan(0);
    // Mid-flood: the remote agent had not finished when its connection went.
    expect(
      await screenText(remote, agentByLabel((await remoteRunOf(remote, runId)).agents, 'there-a').id),
    ).not.toContain('FLOOD-42-DONE');
    // This side notices and reconnects; the agent there never stopped.
    await waitFor(
      async () => (await client.call('hosts.list', {})).find((h) => h.alias === 'devbox')?.state === 'connected',
      'devbox to be connected again',
      60_000,
    );
    await waitFor(
      async () => (await screenText(client, a.id)).includes('FLOOD-42-DONE'),
      'the end of the flood',
      60_000,
    );
    off();
    expect(states).toContain('connecting');
    const there = agentByLabel((await remoteRunOf(remote, runId)).agents, 'there-a');
    expect(there).toMatchObject({ status: 'running', pid: remotePid });
    // Byte-exact: this core's stream of the pane ends at the same offset as the remote terminal's, with the same
    // bytes (the last 512 KiB, through the reconnect), so nothing was lost or doubled.
    const local = await streamTail(client, a.id, 512 * 1024);
    const original = await streamTail(remote, there.id, 512 * 1024);
    expect(local.end).toBe(original.end);
    expect(local.tail.toString('latin1')).toContain('FLOOD-42-DONE');
    expect(local.tail.equals(original.tail)).toBe(true);
    // And the screens (the mirrors) agree.
    const tail = (t: string) => t.trimEnd().split('\n').slice(-10).join('\n');
    expect(tail(await screenText(client, a.id))).toBe(tail(await screenText(remote, there.id)));
    remote.close();
  }, 180_000);

  it('brings the remote agents back from a handle resumed into an empty local data directory', async () => {
    const { handle } = await client.call('run.handle', { run: runId });
    const remote = await remoteCore(sshd);
    const pids = (await remoteRunOf(remote, runId)).agents.map((x) => x.pid);
    // This machine's core dies without stopping anything; the remote agents keep running on their host.
    client.close();
    server.child.kill('SIGKILL');
    await server.exited;
    const fresh = await startServer(join(tempDir('baton-ssh-fresh-'), 'data'), env);
    const next = await fresh.connect();
    try {
      const preview = await next.call('handle.inspect', { handle });
      expect(preview.agents.map((x) => [x.label, x.host ?? null, x.check])).toEqual([
        ['here', null, 'no-session'],
        ['there-a', 'devbox', 'remote'],
        ['there-b', 'devbox', 'remote'],
      ]);
      // Another name for the same machine here: the preview says where each agent will go.
      const mapped = await next.call('handle.inspect', { handle, hostMap: { devbox: 'me@devbox.example:2222' } });
      expect(mapped.agents.map((x) => x.host ?? null)).toEqual([
        null,
        'me@devbox.example:2222',
        'me@devbox.example:2222',
      ]);
      await expect(next.call('handle.inspect', { handle, hostMap: { devbox: '-oProxyCommand=x' } })).rejects.toThrow(
        /host must be an ssh alias/,
      );
      const { run, outcomes } = await next.call('run.resume', { handle, confirmShell: [0, 1, 2] });
      expect(outcomes.map((o) => [o.label, o.outcome])).toEqual([
        ['here', 'fresh'],
        ['there-a', 'resumed'],
        ['there-b', 'resumed'],
      ]);
      // The same processes there, and their screens as they were.
      expect((await remoteRunOf(remote, runId)).agents.map((x) => x.pid)).toEqual(pids);
      const a = agentByLabel(run.agents, 'there-a');
      expect(a.host).toBe('devbox');
      await waitFor(async () => (await screenText(next, a.id)).includes('FLOOD-42-DONE'), 'the old screen', 30_000);
      await next.call('agent.write', { agentId: a.id, data: 'echo again-$((6*7))\r' });
      await waitFor(async () => (await screenText(next, a.id)).includes('again-42'), 'typing into it again');
      expect(pids.every((p) => p !== null && isRunning(p))).toBe(true);
    } finally {
      next.close();
      fresh.child.kill('SIGTERM');
      await fresh.exited;
      remote.close();
    }
  }, 180_000);
});
