// Runs survive their server: real `baton serve` processes, the real WebSocket client, the fake Claude Code CLI.
// A run is started, its agents are told numbers, the server goes away (killed or stopped), and a new server
// (same data directory, or an empty one with only the handle) brings every agent back in its own conversation.
import { existsSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/contract.js';
import { agentByLabel, ask, screenText, waitFor } from '../helpers/server.js';
import {
  agentPids,
  useServeResumeCleanup,
  stopServer,
  serve,
  connectTo,
  processGone,
  scene,
  QUESTION,
  startDemo,
  expectOwnNumbers,
  isSubsequence,
  expectNoHandleLeak,
  runCli,
} from './serve-resume-scene.js';

useServeResumeCleanup();

// ---------- the tests ----------

describe('baton serve: runs survive their server', () => {
  it('a run survives a server killed without goodbye and every agent answers from its own conversation after resume', async () => {
    const s = scene();
    const first = await serve(s.data, s.env);
    const c1 = await connectTo(first);
    const { runId, one, two } = await startDemo(c1, s);

    await c1.call('run.snapshot', { run: 'demo' });
    const { handle } = await c1.call('run.handle', { run: 'demo' });
    expect(handle.startsWith('baton1.')).toBe(true);

    const before = await c1.call('run.get', { run: 'demo' });
    expect(before.id).toBe(runId);
    const pids = before.agents.map((x) => x.pid);
    expect(pids.every((p): p is number => typeof p === 'number' && p > 0)).toBe(true);
    for (const pid of pids as number[]) agentPids.add(pid);

    // No goodbye: no quit snapshot, no stop. The agents lose their terminal and die of SIGHUP.
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await waitFor(() => (pids as number[]).every(processGone), 'the agents of the killed server to die');

    const second = await serve(s.data, s.env);
    const c2 = await connectTo(second);

    const runs = await c2.call('run.list', {});
    expect(runs.map((r) => r.name)).toEqual(['demo']);
    expect(runs[0]!.id).toBe(runId);
    expect(runs[0]!.liveAgents).toBe(0);

    // The last snapshot still shows what each agent was told.
    const shots = await c2.call('run.screens', { run: 'demo' });
    expect(shots.screens).toHaveLength(2);
    const shotOne = shots.screens.find((x) => x.agentId === one.id);
    const shotTwo = shots.screens.find((x) => x.agentId === two.id);
    expect(shotOne?.label).toBe('one');
    expect(shotTwo?.label).toBe('two');
    expect(shotOne!.text).toContain(`remember the number ${s.a}`);
    expect(shotOne!.text).not.toContain(`remember the number ${s.b}`);
    expect(shotTwo!.text).toContain(`remember the number ${s.b}`);
    expect(shotTwo!.text).not.toContain(`remember the number ${s.a}`);

    const resumed = await c2.call('run.resume', { handle });
    expect(resumed.run.id).toBe(runId);
    expect(resumed.outcomes.map((o) => [o.label, o.outcome])).toEqual([
      ['one', 'resumed'],
      ['two', 'resumed'],
    ]);
    for (const agent of resumed.run.agents) if (agent.pid !== null) agentPids.add(agent.pid);

    await expectOwnNumbers(c2, one.id, two.id, s);

    const after = await c2.call('run.get', { run: 'demo' });
    expect(after.id).toBe(runId);
    expect(after.agents.map((x) => x.id).sort()).toEqual([one.id, two.id].sort());
    expect((await c2.call('run.list', {})).map((r) => r.id)).toEqual([runId]);

    const events = await c2.call('run.events', { run: runId });
    const types = events.map((e: RunEvent) => e.type);
    expect(isSubsequence(types, ['started', 'snapshot', 'resumed']), types.join(', ')).toBe(true);

    expectNoHandleLeak(handle, JSON.stringify(events));
  });

  it('a handle alone resumes the run on a fresh install', async () => {
    const s = scene();
    const first = await serve(s.data, s.env);
    const c1 = await connectTo(first);
    const { runId, one, two } = await startDemo(c1, s);
    const { handle } = await c1.call('run.handle', { run: 'demo' });

    c1.close();
    expect(await stopServer(first)).toEqual({ code: 0, signal: null });

    // Same HOME (the vendor's transcripts live there), nothing of Baton's.
    const freshData = join(s.data, '..', 'data-fresh-install');
    const second = await serve(freshData, s.env);
    const c2 = await connectTo(second);
    expect(await c2.call('run.list', {})).toEqual([]);

    const resumed = await c2.call('run.resume', { handle });
    expect(resumed.outcomes.map((o) => o.outcome)).toEqual(['resumed', 'resumed']);
    expect(resumed.run.name).toBe('demo');
    for (const agent of resumed.run.agents) if (agent.pid !== null) agentPids.add(agent.pid);

    const runs = await c2.call('run.list', {});
    expect(runs.map((r) => r.name)).toEqual(['demo']);
    expect(runs[0]!.id).toBe(runId);
    expect(runs[0]!.liveAgents).toBe(2);

    const newOne = agentByLabel(resumed.run.agents, 'one');
    const newTwo = agentByLabel(resumed.run.agents, 'two');
    expect(newOne.cwd).toBe(one.cwd);
    expect(newTwo.cwd).toBe(two.cwd);
    await expectOwnNumbers(c2, newOne.id, newTwo.id, s);

    expectNoHandleLeak(handle, JSON.stringify(await c2.call('run.events', { run: 'demo' })));
  });

  it('an agent whose vendor session is gone comes back fresh with a visible warning while the others resume', async () => {
    const s = scene();
    const first = await serve(s.data, s.env);
    const c1 = await connectTo(first);
    const { one, two } = await startDemo(c1, s);

    // Baton has seen each transcript on disk (the session is confirmed), as it would well before a user quits.
    const seen = await waitFor(async () => {
      const run = await c1.call('run.get', { run: 'demo' });
      return run.agents.every((x) => x.sessionIds.at(-1)?.confirmed === true) ? run : undefined;
    }, 'both sessions confirmed');
    const sessionTwo = agentByLabel(seen.agents, 'two').sessionId;
    const sessionOne = agentByLabel(seen.agents, 'one').sessionId;
    expect(sessionTwo).toMatch(/^[0-9a-f-]{36}$/);

    await c1.call('run.snapshot', { run: 'demo' });
    const { handle } = await c1.call('run.handle', { run: 'demo' });
    c1.close();
    expect(await stopServer(first)).toEqual({ code: 0, signal: null });

    // The user (or a cleanup) deletes `two`'s conversation from the vendor's store.
    const projects = join(s.home, '.claude', 'projects');
    const transcriptsOf = (id: string | null) =>
      readdirSync(projects)
        .map((d) => join(projects, d, `${id}.jsonl`))
        .filter((p) => existsSync(p));
    const doomed = transcriptsOf(sessionTwo);
    expect(doomed).toHaveLength(1);
    unlinkSync(doomed[0]!);
    expect(transcriptsOf(sessionOne)).toHaveLength(1);

    const second = await serve(s.data, s.env);
    const c2 = await connectTo(second);
    const warnings: { agentId: string; message: string }[] = [];
    c2.on('agent.warning', (w) => warnings.push(w));

    const resumed = await c2.call('run.resume', { handle });
    for (const agent of resumed.run.agents) if (agent.pid !== null) agentPids.add(agent.pid);
    const outOne = resumed.outcomes.find((o) => o.label === 'one');
    const outTwo = resumed.outcomes.find((o) => o.label === 'two');
    expect(outOne?.outcome).toBe('resumed');
    expect(outOne?.message).toBeNull();
    expect(outTwo?.outcome).toBe('fresh');
    expect(outTwo?.message).toEqual(expect.stringContaining('fresh'));
    expect(outTwo?.sessionId).not.toBe(sessionTwo);

    // The warning is in `two`'s pane, in its view and as a live event; `one` has none.
    await waitFor(async () => {
      const text = await screenText(c2, two.id);
      return text.split('\n').some((line) => line.includes('baton:') && line.includes('fresh'));
    }, "the fresh-fallback warning on two's screen");
    expect(await screenText(c2, one.id)).not.toContain('baton:');
    const after = await c2.call('run.get', { run: 'demo' });
    expect(agentByLabel(after.agents, 'two').warning).toEqual(expect.stringContaining('fresh'));
    expect(agentByLabel(after.agents, 'one').warning).toBeNull();
    await waitFor(
      () => warnings.some((w) => w.agentId === two.id && w.message.includes('fresh')),
      'an agent.warning event for two',
    );
    expect(warnings.filter((w) => w.agentId === one.id)).toEqual([]);

    const events = await c2.call('run.events', { run: 'demo' });
    const fallbacks = events.filter((e) => e.type === 'fresh-fallback');
    expect(fallbacks.map((e) => e.agentId)).toEqual([two.id]);

    // `two` starts over; `one` still remembers.
    const textTwo = await ask(c2, two.id, QUESTION, 'I do not know any number.');
    expect(textTwo).not.toContain(`The number is ${s.b}`);
    const textOne = await ask(c2, one.id, QUESTION, `The number is ${s.a}.`);
    expect(textOne).not.toContain(`The number is ${s.b}`);

    expectNoHandleLeak(handle, JSON.stringify(events));
  });

  it('resume of a run already in the history continues its own handle-less path', async () => {
    const s = scene();
    const server = await serve(s.data, s.env);
    const client = await connectTo(server);
    const { runId, one, two } = await startDemo(client, s);
    await client.call('run.snapshot', { run: 'demo' });

    // `baton handle demo` prints the handle and nothing else.
    const printed = await runCli(['handle', 'demo', '--data-dir', s.data], s.env);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stderr).toBe('');
    const lines = printed.stdout.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    const handle = lines[0]!;
    expect(handle).toMatch(/^baton1\.[A-Za-z0-9_-]+$/);
    expect(printed.stdout).toBe(`${handle}\n`);

    // The agents end (as after a reboot); the run stays in the history.
    const stopped = await client.call('run.stop', { run: 'demo' });
    expect(stopped.agents.every((x) => x.pid === null)).toBe(true);

    // The handle travels on standard input, never on the command line.
    const resumed = await runCli(['resume', '--data-dir', s.data], s.env, `${handle}\n`);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.argv.join(' ')).not.toContain(handle);
    const out = resumed.stdout.split('\n');
    expect(out).toContain(`run 'demo'`);
    expect(out).toContain('one (claude): resumed');
    expect(out).toContain('two (claude): resumed');
    expect(resumed.stdout + resumed.stderr).not.toContain(handle);

    // Still the one run, with its own history, and each agent in its own conversation.
    const runs = await client.call('run.list', {});
    expect(runs.map((r) => r.id)).toEqual([runId]);
    expect(runs[0]!.liveAgents).toBe(2);
    const run = await client.call('run.get', { run: 'demo' });
    expect(run.id).toBe(runId);
    for (const agent of run.agents) if (agent.pid !== null) agentPids.add(agent.pid);
    await expectOwnNumbers(client, one.id, two.id, s);

    const events = await client.call('run.events', { run: 'demo' });
    const types = events.map((e) => e.type);
    expect(isSubsequence(types, ['started', 'snapshot', 'stopped', 'resumed']), types.join(', ')).toBe(true);
    expect(types.filter((t) => t === 'started')).toHaveLength(1);

    expectNoHandleLeak(handle, JSON.stringify(events));
  });
});
