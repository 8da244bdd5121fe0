// Runs a background core ended without stopping them (kill -9, or a restart a newer app asks for): a killed core's
// runs are offered back and come back in their own conversations; a core restart brings every run back with each
// agent's outcome.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRunning, runCli } from '../helpers/core.js';
import { waitFor } from '../helpers/server.js';
import {
  pids,
  useCoreCleanup,
  scene,
  core,
  client,
  data,
  killCore,
  startDemo,
  expectNumbers,
} from './background-core-scene.js';

useCoreCleanup();

describe('runs a core ended without stopping them', () => {
  it('kill -9: the next core lists the runs that were running, and `baton resume-interrupted` brings each agent back in its own conversation', async () => {
    const s = scene();
    const numbers: [number, number] = [
      1000 + Math.floor(Math.random() * 4000),
      5000 + Math.floor(Math.random() * 4000),
    ];
    const first = await core(s);
    const rpc = await client(first);
    await startDemo(rpc, s, numbers);
    // A run stopped before the kill is not "interrupted": it stays stopped.
    await rpc.call('run.start', {
      name: 'done',
      agents: [{ vendor: 'shell', label: 'sh', cwd: s.work, command: ['/bin/sleep', '600'] }],
    });
    await rpc.call('run.stop', { run: 'done' });

    await killCore(first);
    const second = await core(s);
    const rpc2 = await client(second);
    const recovery = await rpc2.call('recovery.get', {});
    expect(recovery.interrupted).toMatchObject({ reason: 'crash', runs: [{ name: 'demo', agents: 2 }] });
    const listed = await runCli(['ls', ...data(s)], s.env);
    expect(listed.stdout).toMatch(/^demo\t0\/2 live/m);
    expect(listed.stderr).toContain(
      '1 run was running when the core last stopped: `baton resume-interrupted` brings it back',
    );

    const resumed = await runCli(['resume-interrupted', ...data(s)], s.env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/run 'demo'\n {2}one \(claude\): resumed\n {2}two \(claude\): resumed/);
    await expectNumbers(rpc2, numbers);
    expect((await rpc2.call('run.get', { run: 'done' })).agents[0]!.status).toBe('stopped');

    const after = await rpc2.call('recovery.get', {});
    expect(after.interrupted).toBeNull();
    expect(after.last?.runs.map((r) => [r.name, r.outcomes.map((o) => o.outcome)])).toEqual([
      ['demo', ['resumed', 'resumed']],
    ]);
    const again = await runCli(['resume-interrupted', ...data(s)], s.env);
    expect(again.stderr).toMatch(/nothing left to resume/);
  });

  it('with the setting on, the next core resumes them by itself', async () => {
    const s = scene();
    const numbers: [number, number] = [
      2000 + Math.floor(Math.random() * 3000),
      6000 + Math.floor(Math.random() * 3000),
    ];
    const first = await core(s);
    const rpc = await client(first);
    expect(await rpc.call('settings.set', { resumeInterruptedOnStart: true })).toEqual({
      quitAction: 'ask',
      resumeInterruptedOnStart: true,
    });
    await startDemo(rpc, s, numbers);
    await killCore(first);

    const second = await core(s);
    const rpc2 = await client(second);
    const last = await waitFor(
      async () => (await rpc2.call('recovery.get', {})).last ?? undefined,
      'the interrupted runs to be resumed',
    );
    expect(last.runs.map((r) => [r.name, r.outcomes.map((o) => `${o.label}: ${o.outcome}`)])).toEqual([
      ['demo', ['one: resumed', 'two: resumed']],
    ]);
    await expectNumbers(rpc2, numbers);
  });

  it('a core restart (core.shutdown with resumeOnStart, as a newer app asks of an older core) snapshots, stops, and the next core resumes every run with outcomes', async () => {
    const s = scene();
    const numbers: [number, number] = [
      1000 + Math.floor(Math.random() * 4000),
      5000 + Math.floor(Math.random() * 4000),
    ];
    const first = await core(s);
    const rpc = await client(first);
    const { one, two } = await startDemo(rpc, s, numbers);
    await rpc.call('run.start', {
      name: 'shell',
      agents: [{ vendor: 'shell', label: 'sh', cwd: s.work, command: ['/bin/sleep', '600'] }],
    });
    const shellPid = (await rpc.call('run.get', { run: 'shell' })).agents[0]!.pid!;
    pids.add(shellPid);
    expect((await rpc.call('core.info', {})).liveAgents).toBe(3);

    expect(await rpc.call('core.shutdown', { resumeOnStart: true })).toEqual({ liveRuns: 2 });
    expect(await first.exited).toEqual({ code: 0, signal: null });
    for (const pid of [one.pid!, two.pid!, shellPid]) expect(isRunning(pid)).toBe(false);
    expect(existsSync(join(s.data, 'server.json'))).toBe(false);

    const second = await core(s);
    const rpc2 = await client(second);
    const events = await rpc2.call('run.events', { run: 'demo' });
    expect(events.some((e) => e.type === 'snapshot' && e.message?.startsWith('snapshot (quit)'))).toBe(true);
    const last = await waitFor(
      async () => (await rpc2.call('recovery.get', {})).last ?? undefined,
      'the new core to resume every run',
    );
    const outcomes = Object.fromEntries(
      last.runs.map((r) => [r.name, r.outcomes.map((o) => `${o.label}: ${o.outcome}`)]),
    );
    expect(outcomes).toEqual({ demo: ['one: resumed', 'two: resumed'], shell: ['sh: fresh'] });
    expect(last.runs.find((r) => r.name === 'shell')!.outcomes[0]!.message).toMatch(
      /a shell has no conversation to resume/,
    );
    expect((await rpc2.call('core.info', {})).liveAgents).toBe(3);
    await expectNumbers(rpc2, numbers);
  });
});
