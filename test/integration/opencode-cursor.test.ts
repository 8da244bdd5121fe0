// opencode and Cursor through real `baton serve` processes, the real WebSocket client and the fake CLIs of
// test/fakes (opencode.mjs writes a real SQLite opencode.db and serves the TUI's API on --port; cursor-agent.mjs
// follows the [reported] Cursor layout: the real Cursor CLI cannot be installed here, so its support is unverified).
// Per vendor: the id becomes known (opencode: at the first prompt, from the TUI's own server; Cursor: before the TUI
// starts, from create-chat), a number told to the agent survives stop and resume-by-handle, and a deleted session
// comes back `fresh` with a warning. Two opencode agents in one directory never swap or share sessions.
import { existsSync } from 'node:fs';
import pty from 'node-pty';
import { describe, expect, it } from 'vitest';
import type { SessionObservation } from '../../electron/core/vendors/adapter.js';
import { agentByLabel, ask, randomNumber, screenText, waitFor } from '../helpers/server.js';
import { WAIT_MS, terms, stops, useServedCleanup, track, serve, ready, confirmed } from '../helpers/served-vendors.js';
import {
  opencodeAdapter,
  OPENCODE_ID,
  QUESTION,
  opencodeTexts,
  cursorChat,
  CASES,
  byVendor,
  scene,
} from './opencode-cursor-cases.js';

useServedCleanup();

// ---------- the tests ----------

describe.each(CASES)('$vendor through baton serve', (c) => {
  it('learns the id, confirms it from the store, and resumes the conversation by handle', async () => {
    const s = scene();
    const client = await serve(s);
    const n = randomNumber();

    const started = track(
      await client.call('run.start', { name: 'demo', agents: [{ vendor: c.vendor, label: 'talker', cwd: s.work }] }),
    );
    const talker = agentByLabel(started.agents, 'talker');
    expect(talker.status).toBe('running');
    if (c.idAtStart) {
      // Cursor: create-chat ran before the TUI; the CLI chose the id, Baton knew it before anything was typed.
      expect(talker.sessionId).toMatch(c.idPattern);
      expect(talker.sessionIds).toEqual([
        expect.objectContaining({ id: talker.sessionId, chosenBy: 'vendor', confirmed: false }),
      ]);
      expect(existsSync(cursorChat(s.home, s.work, talker.sessionId!))).toBe(true);
    } else {
      // opencode creates its session at the first prompt.
      expect(talker.sessionIds).toEqual([]);
    }

    await ready(client, talker.id, c);
    await ask(client, talker.id, `remember the number ${n}`, `OK, I will remember ${n}.`, WAIT_MS);
    const view = await confirmed(client, 'demo', ['talker'], 1);
    const id = agentByLabel(view.agents, 'talker').sessionId!;
    expect(id).toMatch(c.idPattern);
    expect(agentByLabel(view.agents, 'talker').sessionIds).toEqual([
      expect.objectContaining({ id, chosenBy: 'vendor', confirmed: true }),
    ]);
    if (c.idAtStart) expect(id).toBe(talker.sessionId);
    expect(await c.stored(s.home, s.work, id)).toBe(true);
    const commands = await client.call('run.commands', { run: 'demo' });
    expect(commands.find((x) => x.label === 'talker')?.argv).toEqual(c.resumeArgv(id));

    await client.call('run.snapshot', { run: 'demo' });
    const { handle } = await client.call('run.handle', { run: 'demo' });
    const stopped = await client.call('run.stop', { run: 'demo' });
    expect(stopped.agents.every((a) => a.pid === null)).toBe(true);

    const preview = await client.call('handle.inspect', { handle });
    expect(preview.agents.map((a) => [a.check, a.command.slice(1, 3)])).toEqual([
      ['found', c.vendor === 'opencode' ? ['-s', id] : ['--resume', id]],
    ]);

    const resumed = await client.call('run.resume', { handle });
    track(resumed.run);
    expect(resumed.outcomes.map((o) => [o.label, o.outcome, o.sessionId, o.message])).toEqual([
      ['talker', 'resumed', id, null],
    ]);
    await ready(client, talker.id, c);
    expect(await screenText(client, talker.id)).toContain(`remember the number ${n}`);
    const answer = await ask(client, talker.id, QUESTION, `The number is ${n}.`, WAIT_MS);
    expect(answer).not.toContain('I do not know any number.');

    const after = await client.call('run.get', { run: 'demo' });
    expect(agentByLabel(after.agents, 'talker').sessionIds.map((x) => x.id)).toEqual([id]);
    const events = await client.call('run.events', { run: 'demo' });
    expect(events.filter((e) => e.type === 'fresh-fallback')).toEqual([]);
  });

  it('comes back fresh, with a warning in the pane, when the session was deleted', async () => {
    const s = scene();
    const client = await serve(s);
    const n = randomNumber();

    const started = track(
      await client.call('run.start', { name: 'gone', agents: [{ vendor: c.vendor, label: 'one', cwd: s.work }] }),
    );
    const one = agentByLabel(started.agents, 'one');
    await ready(client, one.id, c);
    await ask(client, one.id, `remember the number ${n}`, `OK, I will remember ${n}.`, WAIT_MS);
    const oldId = agentByLabel((await confirmed(client, 'gone', ['one'], 1)).agents, 'one').sessionId!;
    await client.call('run.snapshot', { run: 'gone' });
    const { handle } = await client.call('run.handle', { run: 'gone' });
    await client.call('run.stop', { run: 'gone' });

    await c.remove(s.home, s.work, oldId);
    expect(await c.stored(s.home, s.work, oldId)).toBe(false);
    const preview = await client.call('handle.inspect', { handle });
    expect(preview.agents.map((a) => a.check)).toEqual(['missing']);

    const warnings: string[] = [];
    client.on('agent.warning', (w) => warnings.push(w.message));
    const resumed = await client.call('run.resume', { handle });
    track(resumed.run);
    const [outcome] = resumed.outcomes;
    expect(outcome?.outcome).toBe('fresh');
    // Neither CLI can be told a new id here: it is discovered once the CLI makes its session.
    expect(outcome?.sessionId).toBeNull();
    expect(outcome?.message).toContain('starting a fresh conversation');
    expect(outcome?.message).toContain(`${oldId.slice(0, 8)}…`);
    expect(outcome?.message).not.toContain(oldId);

    await waitFor(
      async () =>
        (await screenText(client, one.id)).split('\n').some((l) => l.includes('baton:') && l.includes('fresh')),
      'the fresh-fallback warning in the pane',
      WAIT_MS,
    );
    await waitFor(() => warnings.some((w) => w.includes('fresh')), 'an agent.warning event', WAIT_MS);
    await ready(client, one.id, c);
    await ask(client, one.id, QUESTION, 'I do not know any number.', WAIT_MS);
    const view = await confirmed(client, 'gone', ['one'], 2);
    const ids = agentByLabel(view.agents, 'one').sessionIds.map((x) => x.id);
    expect(ids[0]).toBe(oldId);
    expect(ids[1]).toMatch(c.idPattern);
    expect(ids[1]).not.toBe(oldId);
    expect(await c.stored(s.home, s.work, ids[1]!)).toBe(true);
    const events = await client.call('run.events', { run: 'gone' });
    expect(events.filter((e) => e.type === 'fresh-fallback').map((e) => e.agentId)).toEqual([one.id]);
  });
});

describe('cursor: an agent that never spoke', () => {
  it('comes back under the chat create-chat made for it', async () => {
    const c = byVendor('cursor');
    const s = scene();
    const client = await serve(s);
    const started = track(
      await client.call('run.start', { name: 'quiet', agents: [{ vendor: 'cursor', label: 'quiet', cwd: s.work }] }),
    );
    const quiet = agentByLabel(started.agents, 'quiet');
    const id = quiet.sessionId!;
    await ready(client, quiet.id, c);
    const { handle } = await client.call('run.handle', { run: 'quiet' });
    await client.call('run.stop', { run: 'quiet' });
    const resumed = await client.call('run.resume', { handle });
    track(resumed.run);
    expect(resumed.outcomes.map((o) => [o.outcome, o.sessionId, o.message])).toEqual([['resumed', id, null]]);
    await ready(client, quiet.id, c);
    const m = randomNumber();
    await ask(client, quiet.id, `remember the number ${m}`, `OK, I will remember ${m}.`, WAIT_MS);
    const view = await confirmed(client, 'quiet', ['quiet'], 1);
    expect(agentByLabel(view.agents, 'quiet').sessionId).toBe(id);
  });
});

describe('opencode: two agents in one directory', () => {
  it("through baton serve: the second waits for the first one's id, and each keeps its own conversation", async () => {
    const c = byVendor('opencode');
    const s = scene();
    const client = await serve(s);
    const a = randomNumber();
    const b = randomNumber([a]);

    // The core serialises spawns of a discovering vendor in one directory until the id is known: run.start
    // returns once the first agent has its session, which opencode makes at the first prompt. So talk to the
    // first agent as soon as it runs.
    const running: string[] = [];
    client.on('agent.status', (e) => {
      if (e.status === 'running' && !running.includes(e.agentId)) running.push(e.agentId);
    });
    const starting = client.call('run.start', {
      name: 'twins',
      agents: [
        { vendor: 'opencode', label: 'left', cwd: s.work },
        { vendor: 'opencode', label: 'right', cwd: s.work },
      ],
    });
    const leftId = await waitFor(() => running[0], 'the first agent running', WAIT_MS);
    await ready(client, leftId, c);
    await ask(client, leftId, `remember the number ${a}`, `OK, I will remember ${a}.`, WAIT_MS);
    const started = track(await starting);
    const left = agentByLabel(started.agents, 'left');
    const right = agentByLabel(started.agents, 'right');
    expect(left.id).toBe(leftId);
    expect(left.cwd).toBe(right.cwd);

    await ready(client, right.id, c);
    await ask(client, right.id, `remember the number ${b}`, `OK, I will remember ${b}.`, WAIT_MS);
    const view = await confirmed(client, 'twins', ['left', 'right'], 1);
    const leftSession = agentByLabel(view.agents, 'left').sessionId!;
    const rightSession = agentByLabel(view.agents, 'right').sessionId!;
    expect(leftSession).toMatch(OPENCODE_ID);
    expect(rightSession).toMatch(OPENCODE_ID);
    expect(leftSession).not.toBe(rightSession);
    // Each session, in the store both processes share, holds its own agent's number only.
    expect((await opencodeTexts(s.home, leftSession)).join(' ')).toContain(`remember the number ${a}`);
    expect((await opencodeTexts(s.home, leftSession)).join(' ')).not.toContain(String(b));
    expect((await opencodeTexts(s.home, rightSession)).join(' ')).toContain(`remember the number ${b}`);
    expect((await opencodeTexts(s.home, rightSession)).join(' ')).not.toContain(String(a));

    await client.call('run.snapshot', { run: 'twins' });
    const { handle } = await client.call('run.handle', { run: 'twins' });
    await client.call('run.stop', { run: 'twins' });
    const resumed = await client.call('run.resume', { handle });
    track(resumed.run);
    expect(resumed.outcomes.map((o) => [o.label, o.outcome, o.sessionId])).toEqual([
      ['left', 'resumed', leftSession],
      ['right', 'resumed', rightSession],
    ]);
    await Promise.all([ready(client, left.id, c), ready(client, right.id, c)]);
    const [textLeft, textRight] = await Promise.all([
      ask(client, left.id, QUESTION, `The number is ${a}.`, WAIT_MS),
      ask(client, right.id, QUESTION, `The number is ${b}.`, WAIT_MS),
    ]);
    for (const phrase of [`remember the number ${b}`, `The number is ${b}`]) expect(textLeft).not.toContain(phrase);
    for (const phrase of [`remember the number ${a}`, `The number is ${a}`]) expect(textRight).not.toContain(phrase);
  });

  it('followed side by side with no gate between them: each process gets the session it made, whoever speaks first', async () => {
    // What the core's spawn queue cannot prevent: another opencode in the same directory (started by hand, or after
    // the queue gave up waiting). Both servers list both sessions (one shared database); only each process's own
    // event stream says which session is its.
    const s = scene();
    const spawn = async (): Promise<{ term: pty.IPty; seen: SessionObservation[]; screen: () => string }> => {
      const plan = await opencodeAdapter.spawnFresh(
        { runName: 'r', label: 'x', cwd: s.work, args: [], command: null },
        s.env,
      );
      const term = pty.spawn(process.execPath, [plan.argv[0]!, ...plan.argv.slice(1)], {
        name: 'xterm-256color',
        cols: 120,
        rows: 40,
        cwd: s.work,
        env: s.env,
      });
      terms.push(term);
      let out = '';
      term.onData((d) => (out += d));
      const seen: SessionObservation[] = [];
      stops.push(
        opencodeAdapter.follow(
          { pid: term.pid, cwd: s.work, hints: plan.hints ?? {}, spawnedAt: Date.now() },
          s.env,
          (o) => seen.push(o),
        ),
      );
      return { term, seen, screen: () => out };
    };
    const say = async (p: { term: pty.IPty; screen: () => string }, text: string, expected: string) => {
      p.term.write(text);
      await new Promise((r) => setTimeout(r, opencodeAdapter.submitDelayMs));
      p.term.write('\r');
      await waitFor(() => p.screen().includes(expected), expected, WAIT_MS);
    };
    const one = await spawn();
    const two = await spawn();
    await waitFor(() => one.screen().includes('ctrl+p') && two.screen().includes('ctrl+p'), 'both ready', WAIT_MS);
    await say(two, 'remember the number 2222', 'OK, I will remember 2222.');
    await waitFor(() => two.seen.some((o) => o.confirmed), 'the second process its session', WAIT_MS);
    await say(one, 'remember the number 1111', 'OK, I will remember 1111.');
    await waitFor(() => one.seen.some((o) => o.confirmed), 'the first process its session', WAIT_MS);
    await new Promise((r) => setTimeout(r, 1000)); // let any wrong switch show up
    const idOne = one.seen.at(-1)!.sessionId;
    const idTwo = two.seen.at(-1)!.sessionId;
    expect(idOne).not.toBe(idTwo);
    expect(one.seen.map((o) => o.sessionId).every((x) => x === idOne)).toBe(true);
    expect(two.seen.map((o) => o.sessionId).every((x) => x === idTwo)).toBe(true);
    expect((await opencodeTexts(s.home, idOne)).join(' ')).toContain('1111');
    expect((await opencodeTexts(s.home, idTwo)).join(' ')).toContain('2222');
  });
});
