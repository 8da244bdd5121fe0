// A handle chooses the directory its agents start in, and a vendor CLI loads project configuration (MCP servers,
// hooks) from there: through a real `baton serve`, a directory that is someone else's or that others can write is
// refused everywhere with its reason, the preview shows where each agent will really run and which directories
// are new here, shell agents from a handle start only when confirmed, and a run never grows past 32 agents.
// CI runs as root: "another user" is simulated by chowning to uid 65534 (nobody).
import { chmodSync, chownSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { descendantKeys } from '../helpers/processes.js';
import { RawConnection } from '../helpers/raw-connection.js';
import {
  agentByLabel,
  screenText,
  startServer,
  tempDir,
  testEnv,
  waitFor,
  type ServerProcess,
} from '../helpers/server.js';
import { endServerAndRemove } from '../helpers/server-teardown.js';
import { refusal } from '../helpers/refusal.js';
import { base36, newAgentId, newRunId } from '../helpers/handle-ids.js';

const NOBODY = 65534;

interface BodyAgent {
  id: string;
  label: string;
  vendor: string;
  sessionId: string | null;
  cwd: string;
}
const handleOf = (run: { name: string; id: string }, agents: BodyAgent[], scope?: 'agent') =>
  `baton1.${Buffer.from(JSON.stringify({ v: 1, ...(scope ? { scope } : {}), run, createdAt: new Date().toISOString(), agents }), 'utf8').toString('base64url')}`;
const shellIn = (cwd: string, label = 'sh'): BodyAgent => ({
  id: newAgentId(),
  label,
  vendor: 'shell',
  sessionId: null,
  cwd,
});

let root: string;
let server: ServerProcess;
let client: RpcClient;
let raw: RawConnection;
const dirs = { own: '', world: '', group: '', sticky: '', foreign: '', linkToForeign: '', inSticky: '', other: '' };
const handles: string[] = [];

beforeAll(async () => {
  root = realpathSync(tempDir('baton-untrusted-dirs-'));
  const make = (name: string, mode: number) => {
    const d = join(root, name);
    mkdirSync(d);
    chmodSync(d, mode);
    return d;
  };
  dirs.own = make('own', 0o755);
  dirs.other = make('other', 0o755);
  dirs.world = make('world', 0o777);
  dirs.group = make('group', 0o775);
  dirs.sticky = make('sticky', 0o1777);
  dirs.inSticky = join(dirs.sticky, 'mine');
  mkdirSync(dirs.inSticky, { mode: 0o755 });
  dirs.foreign = make('foreign', 0o755);
  chownSync(dirs.foreign, NOBODY, NOBODY);
  dirs.linkToForeign = join(root, 'link-to-foreign');
  symlinkSync(dirs.foreign, dirs.linkToForeign);
  server = await startServer(join(root, 'data'), testEnv(join(root, 'home')));
  client = await server.connect();
  raw = await RawConnection.open(server);
}, 40_000);

afterAll(async () => {
  raw?.close();
  client?.close();
  await endServerAndRemove(server, root);
});

const runNames = async () => (await client.call('run.list', {})).map((r) => r.name);

/** The refusals, with the reason a user needs to fix it. */
const UNSAFE = [
  {
    name: 'owned by another user',
    dir: () => dirs.foreign,
    reason: /is owned by another user \(uid 65534; Baton runs as uid \d+\)/,
  },
  {
    name: 'a link to a directory owned by another user',
    dir: () => dirs.linkToForeign,
    reason: /is owned by another user \(uid 65534/,
  },
  { name: 'writable by everyone (0777)', dir: () => dirs.world, reason: /is writable by other users \(mode 0777\)/ },
  {
    name: 'writable by everyone with the sticky bit (1777, like /tmp)',
    dir: () => dirs.sticky,
    reason: /is writable by other users \(mode 1777\)/,
  },
  { name: 'writable by its group (0775)', dir: () => dirs.group, reason: /is writable by its group \(mode 0775\)/ },
];

describe('a directory that is not only the user’s is refused, with the reason', () => {
  it.each(UNSAFE)(
    'run.start in a directory $name names the path, the agent and the reason, and starts nothing',
    async (c) => {
      const err = await refusal(
        client.call('run.start', { name: `typed-${c.name}`, agents: [{ vendor: 'shell', label: 'sh', cwd: c.dir() }] }),
      );
      expect(err).toMatchObject({ code: 'invalid', field: 'agents[0].cwd' });
      // Typed by the user in this request: the path may be shown.
      expect(err.message).toContain(`agent 'sh' (shell): directory ${c.dir()} `);
      expect(err.message.replace(c.dir(), '<dir>')).toMatch(c.reason);
      expect(err.message).toMatch(/project settings \(MCP servers, hooks\)/);
      expect(await runNames()).not.toContain(`typed-${c.name}`);
    },
  );

  it('agent.add refuses such a directory too, and the run keeps its agents', async () => {
    const run = await client.call('run.start', {
      name: 'adds',
      agents: [{ vendor: 'shell', label: 'first', cwd: dirs.own, command: ['/bin/sh', '-c', 'exec sleep 300'] }],
    });
    for (const c of UNSAFE) {
      const err = await refusal(
        client.call('agent.add', { run: 'adds', agent: { vendor: 'shell', label: 'second', cwd: c.dir() } }),
      );
      expect(err.code).toBe('invalid');
      expect(err.message.replace(c.dir(), '<dir>')).toMatch(c.reason);
    }
    expect((await client.call('run.get', { run: run.id })).agents.map((a) => a.label)).toEqual(['first']);
    await client.call('run.stop', { run: run.id });
  });

  it('a directory of the user’s own inside a world-writable sticky directory (as under /tmp) is accepted: parents are not checked', async () => {
    const run = await client.call('run.start', {
      name: 'in-sticky',
      agents: [{ vendor: 'shell', label: 'sh', cwd: dirs.inSticky, command: ['/bin/sh', '-c', 'exec sleep 300'] }],
    });
    expect(agentByLabel(run.agents, 'sh').cwd).toBe(dirs.inSticky);
    await client.call('run.stop', { run: run.id });
  });

  it.each(UNSAFE)(
    'a handle naming a directory $name: the preview gives the reason, resume refuses without echoing the path',
    async (c) => {
      const handle = handleOf({ name: `handle-${c.name}`, id: newRunId() }, [shellIn(c.dir())]);
      handles.push(handle);
      const procs = descendantKeys(server.child.pid!);

      const preview = await client.call('handle.inspect', { handle });
      const [agent] = preview.agents;
      expect(agent!.check).toBe('cwd-unsafe');
      expect(agent!.cwdProblem).toMatch(c.reason);
      expect(agent!.command).toEqual([]);

      const err = await refusal(client.call('run.resume', { handle, confirmShell: [0] }));
      expect(err).toMatchObject({ code: 'invalid', field: 'agents[0].cwd' });
      expect(err.message).toMatch(c.reason);
      // From a handle (a secret): the reason only, never the path, which could end up in a log.
      expect(err.message).not.toContain(c.dir());
      expect(err.message).not.toContain(root);
      expect(descendantKeys(server.child.pid!)).toEqual(procs);
      expect(await runNames()).not.toContain(`handle-${c.name}`);
    },
  );
});

describe('the preview shows where each agent really runs', () => {
  it('a known agent runs in its recorded directory whatever the handle says; a directory no run has used is marked new', async () => {
    const run = await client.call('run.start', {
      name: 'known',
      agents: [{ vendor: 'shell', label: 'sh', cwd: dirs.own, command: ['/bin/sh', '-c', 'exec sleep 300'] }],
    });
    await client.call('run.stop', { run: run.id });
    const sh = agentByLabel(run.agents, 'sh');
    const fresh = join(root, `fresh-${base36(6)}`);
    mkdirSync(fresh, { mode: 0o755 });
    // The same run and agent, but the handle names another directory; plus an agent the store does not know.
    const handle = handleOf({ name: 'known', id: run.id }, [
      { ...shellIn(dirs.other), id: sh.id },
      shellIn(fresh, 'newcomer'),
    ]);
    handles.push(handle);

    const preview = await client.call('handle.inspect', { handle });
    expect(preview.knownRun).toBe(true);
    expect(preview.agents.map((a) => [a.label, a.cwd, a.newDirectory, a.cwdProblem])).toEqual([
      ['sh', dirs.own, false, null],
      ['newcomer', fresh, true, null],
    ]);

    const result = await client.call('run.resume', { handle, confirmShell: [0, 1] });
    expect(result.outcomes.map((o) => [o.label, o.outcome])).toEqual([
      ['sh', 'fresh'],
      ['newcomer', 'fresh'],
    ]);
    expect(agentByLabel(result.run.agents, 'sh').cwd).toBe(dirs.own);
    expect(agentByLabel(result.run.agents, 'newcomer').cwd).toBe(fresh);
    await client.call('run.stop', { run: run.id });

    // A handle naming a directory that does not exist for this agent is refused, though it would run elsewhere.
    const missing = handleOf({ name: 'known', id: run.id }, [{ ...shellIn(join(root, 'not-there')), id: sh.id }]);
    handles.push(missing);
    expect((await client.call('handle.inspect', { handle: missing })).agents[0]).toMatchObject({
      cwd: dirs.own,
      check: 'cwd-missing',
      cwdProblem: 'the directory the handle names for it: directory does not exist',
    });

    // Once used, the directory is no longer new.
    const again = await client.call('handle.inspect', {
      handle: handleOf({ name: 'elsewhere', id: newRunId() }, [shellIn(fresh)]),
    });
    expect(again.agents[0]!.newDirectory).toBe(false);
  });

  it('a known agent whose recorded directory became writable by others is refused, though the handle names a good one', async () => {
    const dir = join(root, `later-${base36(6)}`);
    mkdirSync(dir, { mode: 0o755 });
    const run = await client.call('run.start', {
      name: 'later',
      agents: [{ vendor: 'shell', label: 'sh', cwd: dir, command: ['/bin/sh', '-c', 'exec sleep 300'] }],
    });
    await client.call('run.stop', { run: run.id });
    chmodSync(dir, 0o777);
    const handle = handleOf({ name: 'later', id: run.id }, [
      { ...shellIn(dirs.own), id: agentByLabel(run.agents, 'sh').id },
    ]);
    handles.push(handle);
    const preview = await client.call('handle.inspect', { handle });
    expect(preview.agents[0]).toMatchObject({ cwd: dir, check: 'cwd-unsafe', command: [] });
    const err = await refusal(client.call('run.resume', { handle, confirmShell: [0] }));
    expect(err).toMatchObject({ code: 'invalid', field: 'agents[0].cwd' });
    expect(err.message).toMatch(/writable by other users \(mode 0777\)/);
    expect(err.message).not.toContain(dir);
    expect(agentByLabel((await client.call('run.get', { run: run.id })).agents, 'sh').status).toBe('stopped');
  });
});

describe('a shell agent from a handle needs its own confirmation', () => {
  it('unconfirmed, a new run of only shell agents is refused and nothing is created', async () => {
    const handle = handleOf({ name: 'shells-only', id: newRunId() }, [shellIn(dirs.own, 'a'), shellIn(dirs.own, 'b')]);
    handles.push(handle);
    const procs = descendantKeys(server.child.pid!);
    const err = await refusal(client.call('run.resume', { handle }));
    expect(err).toMatchObject({ code: 'invalid', field: 'confirmShell' });
    expect(err.message).toMatch(/shell agent/);
    expect(descendantKeys(server.child.pid!)).toEqual(procs);
    expect(await runNames()).not.toContain('shells-only');
  });

  it('only the confirmed shell agents start; an unconfirmed one is neither started nor added until confirmed', async () => {
    const marker = `started-${base36(8)}`;
    const handle = handleOf({ name: 'mixed', id: newRunId() }, [
      shellIn(dirs.own, 'unconfirmed'),
      shellIn(dirs.own, 'confirmed'),
    ]);
    handles.push(handle);
    const first = await client.call('run.resume', { handle, confirmShell: [1] });
    expect(first.outcomes.map((o) => [o.label, o.outcome])).toEqual([
      ['unconfirmed', 'failed'],
      ['confirmed', 'fresh'],
    ]);
    expect(first.outcomes[0]!.message).toMatch(/not started: .*starts only once you confirm it/);
    expect(first.run.agents.map((a) => a.label)).toEqual(['confirmed']);
    const confirmed = agentByLabel(first.run.agents, 'confirmed');
    expect(confirmed.pid).not.toBeNull();
    await client.call('agent.send', { agentId: confirmed.id, text: `echo ${marker}` });
    await waitFor(
      async () => (await screenText(client, confirmed.id)).includes(marker),
      'the confirmed shell to answer',
    );

    // The same handle again, now confirming the other one: it joins the run and starts; the first keeps running.
    const second = await client.call('run.resume', { handle, confirmShell: [0] });
    expect(second.outcomes.map((o) => [o.label, o.outcome, o.message])).toEqual([
      ['unconfirmed', 'fresh', expect.stringMatching(/shell has no conversation/)],
      ['confirmed', 'resumed', 'already running'],
    ]);
    const run = await client.call('run.get', { run: 'mixed' });
    expect(run.agents.map((a) => [a.label, a.status])).toEqual([
      ['confirmed', 'running'],
      ['unconfirmed', 'running'],
    ]);

    // Stopped, the same handle without confirmations starts neither, though both are in the store now.
    await client.call('run.stop', { run: 'mixed' });
    const third = await client.call('run.resume', { handle });
    expect(third.outcomes.map((o) => o.outcome)).toEqual(['failed', 'failed']);
    expect((await client.call('run.get', { run: 'mixed' })).agents.every((a) => a.pid === null)).toBe(true);
  });
});

describe('a run holds at most 32 agents', () => {
  let runId = '';
  const sleeper = (label: string) => ({
    vendor: 'shell' as const,
    label,
    cwd: dirs.own,
    command: ['/bin/sh', '-c', 'exec sleep 300'],
  });

  beforeAll(async () => {
    const run = await client.call('run.start', {
      name: 'full',
      agents: Array.from({ length: 31 }, (_, i) => sleeper(`s${i}`)),
    });
    runId = run.id;
    // The 32nd fits.
    await client.call('agent.add', { run: 'full', agent: sleeper('s31') });
    await client.call('run.stop', { run: 'full' });
  }, 60_000);

  it('agent.add of a 33rd agent is refused, and the run keeps its 32', async () => {
    const res = await raw.call('agent.add', { run: 'full', agent: sleeper('s32') });
    expect(res.ok).toBe(false);
    expect(res.error).toMatchObject({ code: 'invalid', field: 'agent' });
    expect(res.error!.message).toMatch(/a run holds at most 32 agents: this one has 32/);
    expect((await client.call('run.get', { run: runId })).agents).toHaveLength(32);
  });

  it('resume of an agent handle into the full run is refused in the preview and in resume, starting nothing', async () => {
    const handle = handleOf({ name: 'full', id: runId }, [shellIn(dirs.own, 'extra')], 'agent');
    handles.push(handle);
    const procs = descendantKeys(server.child.pid!);
    for (const method of ['handle.inspect', 'run.resume'] as const) {
      const res = await raw.call(method, { handle, confirmShell: method === 'run.resume' ? [0] : undefined });
      expect(res.ok, method).toBe(false);
      expect(res.error).toMatchObject({ code: 'invalid', field: 'agents' });
      expect(res.error!.message).toMatch(/a run holds at most 32 agents/);
    }
    expect(descendantKeys(server.child.pid!)).toEqual(procs);
    expect((await client.call('run.get', { run: runId })).agents).toHaveLength(32);
  });
});

describe('afterwards', () => {
  it('no handle text reached the server output', () => {
    expect(handles.length).toBeGreaterThan(5);
    const output = server.output();
    for (const h of handles) expect(output.includes(h)).toBe(false);
    expect(output).not.toMatch(/baton1\./);
  });
});
