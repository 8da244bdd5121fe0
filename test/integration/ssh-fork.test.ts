// A fork of a run with agents on another host, against a real sshd on 127.0.0.1 (test/helpers/sshd.ts): each remote
// agent is forked by its host's core and stays on that host (its conversation continued there, its new worktree there
// on a branch named after the fork), while the run's local agent is forked here.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import { sshdAvailable, startSshd, type TestSshd } from '../helpers/sshd.js';
import { FAKES, agentByLabel, ask, randomNumber, screenText, waitFor, type ServerProcess } from '../helpers/server.js';
import { BASH, IDENTITY, endSshMachines, git, localCore, remoteCore } from './ssh-hosts-helpers.js';

const QUESTION = 'what number did I ask you to remember';
const WAIT_MS = 30_000;

describe.skipIf(!sshdAvailable())('a fork of a run with agents on a host', () => {
  let sshd: TestSshd;
  let server: ServerProcess;
  let client: RpcClient;
  let repo: string;
  let localDir: string;

  beforeAll(async () => {
    sshd = await startSshd({ env: { ...IDENTITY, BATON_CLAUDE_BIN: join(FAKES, 'claude.mjs') } });
    repo = join(sshd.remoteHome, 'src', 'app');
    mkdirSync(repo, { recursive: true });
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'README.md'), 'app\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'first');
    const local = await localCore(sshd, 'baton-ssh-fork-');
    ({ server, client } = local);
    localDir = join(local.dir, 'here');
    mkdirSync(localDir, { recursive: true });
  }, 60_000);

  afterAll(() => endSshMachines(sshd, server, client), 60_000);

  it('forks each remote agent on its host: its conversation continues there, its worktree is made there', async () => {
    const run = await client.call('run.start', {
      name: 'Far work',
      agents: [
        { vendor: 'claude', label: 'talk', cwd: repo, host: 'devbox' },
        { vendor: 'shell', label: 'build', cwd: repo, command: BASH, host: 'devbox', worktree: 'new' },
        { vendor: 'shell', label: 'near', cwd: localDir, command: BASH },
      ],
    });
    const talk = agentByLabel(run.agents, 'talk');
    const build = agentByLabel(run.agents, 'build');
    expect(talk, talk.warning ?? '').toMatchObject({ host: 'devbox', status: 'running' });
    expect(build, build.warning ?? '').toMatchObject({ host: 'devbox', status: 'running' });
    // The source's worktree moves on after it was made: the fork's starts from the commit it has now.
    await client.call('agent.write', {
      agentId: build.id,
      data: 'echo v2 > made.txt && git add made.txt && git commit -qm second && echo committed\r',
    });
    await waitFor(async () => (await screenText(client, build.id)).includes('\ncommitted'), 'the commit', WAIT_MS);
    const sourceHead = git(build.worktree!.worktreePath, 'rev-parse', 'HEAD');

    const n = randomNumber();
    await waitFor(async () => (await screenText(client, talk.id)).includes('❯'), 'the prompt', WAIT_MS);
    await ask(client, talk.id, `remember the number ${n}`, `OK, I will remember ${n}.`, WAIT_MS);
    const said = await waitFor(
      async () =>
        (await client.call('run.get', { run: run.id })).agents.find((a) => a.id === talk.id)?.sessionId ?? undefined,
      'the remote session id',
      WAIT_MS,
    );
    // The host's fork copies or forks what its CLI wrote there: wait until the answer is in its transcript there.
    const files = createVendors().get('claude')!.transcripts!;
    await waitFor(
      async () => {
        const path = await files.locate(said, repo, { HOME: sshd.remoteHome });
        return path !== null && readFileSync(path, 'utf8').includes(`OK, I will remember ${n}.`);
      },
      'the answer in the transcript on the host',
      WAIT_MS,
    );

    const forked = await client.call('run.fork', { run: run.id });
    expect(forked.run.name).toBe('Far work fork');
    const byLabel = Object.fromEntries(forked.outcomes.map((o) => [o.label, o]));
    expect(byLabel.talk, byLabel.talk?.message ?? '').toMatchObject({ outcome: 'resumed', method: 'native' });
    expect(byLabel.build?.outcome, byLabel.build?.message ?? '').not.toBe('failed');

    // The forked remote agents run on the same host, in a run there named after the fork's id.
    const fTalk = agentByLabel(forked.run.agents, 'talk');
    const fBuild = agentByLabel(forked.run.agents, 'build');
    const fNear = agentByLabel(forked.run.agents, 'near');
    expect(fTalk).toMatchObject({ host: 'devbox', status: 'running' });
    expect(fBuild).toMatchObject({ host: 'devbox', status: 'running' });
    expect(fNear.host).toBeUndefined();
    expect(fNear.status).toBe('running');
    const remote = await remoteCore(sshd);
    const there = (await remote.call('run.list', {})).find((r) => r.name === forked.run.id);
    expect(there, 'the fork has its run on the host').toBeDefined();
    const thereRun = await remote.call('run.get', { run: there!.id });
    expect(thereRun.agents.map((a) => [a.label, a.status]).sort()).toEqual([
      ['build', 'running'],
      ['talk', 'running'],
    ]);
    remote.close();

    // The conversation continues on the host under a new id; the source keeps its own.
    expect(fTalk.sessionId).not.toBeNull();
    expect(fTalk.sessionId).not.toBe(said);
    await ask(client, fTalk.id, QUESTION, `The number is ${n}.`, WAIT_MS);
    const m = randomNumber([n]);
    await ask(client, fTalk.id, `now remember the number ${m}`, `OK, I will remember ${m}.`, WAIT_MS);
    await ask(client, talk.id, QUESTION, `The number is ${n}.`, WAIT_MS);

    // The fork's worktree is on the host, on a branch named after the fork, from the commit its source had.
    const worktreePath = join(sshd.remoteHome, '.baton', 'worktrees', 'app', 'far-work-fork-build');
    expect(fBuild.worktree).toMatchObject({ repoRoot: repo, worktreePath, branch: 'baton/far-work-fork/build' });
    expect(git(worktreePath, 'rev-parse', 'HEAD')).toBe(sourceHead);
    await client.call('agent.write', { agentId: fBuild.id, data: 'echo "pwd=$PWD"\r' });
    await waitFor(async () => (await screenText(client, fBuild.id)).includes(`pwd=${worktreePath}`), 'its pwd');

    await client.call('run.stop', { run: forked.run.id });
    await client.call('run.stop', { run: run.id });
  }, 180_000);
});
