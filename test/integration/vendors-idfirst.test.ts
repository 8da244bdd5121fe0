// Vendors whose session id Baton picks at spawn (`--session-id <uuid>`): Gemini, Copilot, Qwen. Real `baton serve`
// processes, the real WebSocket client, and the fake CLIs of test/fakes (real flags, real on-disk formats).
// Per vendor: the id is known at start and confirmed from the vendor's own store; a number told to the agent
// survives stop and resume-by-handle; an agent that never spoke comes back under its same id; a deleted
// transcript comes back `fresh` with a warning. And two Gemini agents in one directory never swap conversations.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentByLabel, ask, randomNumber, screenText, waitFor } from '../helpers/server.js';
import { WAIT_MS, useServedCleanup, track, serve, ready, confirmed } from '../helpers/served-vendors.js';
import { UUID_V4, QUESTION, geminiChats, CASES, byVendor, scene } from './vendors-idfirst-cases.js';

useServedCleanup();

// ---------- the tests ----------

describe.each(CASES)('$vendor: id chosen by Baton at spawn', (c) => {
  it('knows the id at start, confirms it from the store, and resumes every agent into its own conversation', async () => {
    const s = scene();
    const client = await serve(s);
    const n = randomNumber();

    const started = track(
      await client.call('run.start', {
        name: 'demo',
        agents: [
          { vendor: c.vendor, label: 'talker', cwd: s.work },
          { vendor: c.vendor, label: 'quiet', cwd: s.work },
        ],
      }),
    );
    const talker = agentByLabel(started.agents, 'talker');
    const quiet = agentByLabel(started.agents, 'quiet');
    // Known before the CLI said anything, chosen by Baton, one per agent.
    for (const a of [talker, quiet]) {
      expect(a.status).toBe('running');
      expect(a.sessionId).toMatch(UUID_V4);
      expect(a.sessionIds).toEqual([expect.objectContaining({ id: a.sessionId, chosenBy: 'baton' })]);
    }
    expect(talker.sessionId).not.toBe(quiet.sessionId);
    const talkerId = talker.sessionId!;
    const quietId = quiet.sessionId!;

    await Promise.all([ready(client, talker.id, c), ready(client, quiet.id, c)]);
    await ask(client, talker.id, `remember the number ${n}`, `OK, I will remember ${n}.`, WAIT_MS);

    // The CLI runs under the id Baton gave it: its own store says so, and Baton confirms it from there.
    await confirmed(client, 'demo', ['talker']);
    expect(c.storedId(s.home, talkerId)).toBe(talkerId);
    expect(c.transcripts(s.home, talkerId)).toHaveLength(1);
    const commands = await client.call('run.commands', { run: 'demo' });
    expect(commands.find((x) => x.label === 'talker')?.argv).toEqual(c.resumeArgv(talkerId));

    await client.call('run.snapshot', { run: 'demo' });
    const { handle } = await client.call('run.handle', { run: 'demo' });
    const stopped = await client.call('run.stop', { run: 'demo' });
    expect(stopped.agents.every((a) => a.pid === null)).toBe(true);

    const resumed = await client.call('run.resume', { handle });
    track(resumed.run);
    expect(resumed.outcomes.map((o) => [o.label, o.outcome, o.sessionId, o.message])).toEqual([
      ['talker', 'resumed', talkerId, null],
      ['quiet', 'resumed', quietId, null],
    ]);

    await Promise.all([ready(client, talker.id, c), ready(client, quiet.id, c)]);
    // The resumed CLI redraws the old turns, and answers from them.
    expect(await screenText(client, talker.id)).toContain(`remember the number ${n}`);
    const answer = await ask(client, talker.id, QUESTION, `The number is ${n}.`, WAIT_MS);
    expect(answer).not.toContain('I do not know any number.');

    // The agent that never spoke came back under its own id (the CLI accepted it) and starts from nothing.
    const m = randomNumber([n]);
    const quietText = await ask(client, quiet.id, `remember the number ${m}`, `OK, I will remember ${m}.`, WAIT_MS);
    expect(quietText).not.toContain(`remember the number ${n}`);
    expect(quietText).not.toContain(`The number is ${n}`);
    await confirmed(client, 'demo', ['talker', 'quiet']);
    expect(c.storedId(s.home, quietId)).toBe(quietId);

    const after = await client.call('run.get', { run: 'demo' });
    expect(agentByLabel(after.agents, 'talker').sessionIds.map((x) => x.id)).toEqual([talkerId]);
    expect(agentByLabel(after.agents, 'quiet').sessionIds.map((x) => x.id)).toEqual([quietId]);
    const events = await client.call('run.events', { run: 'demo' });
    expect(events.filter((e) => e.type === 'fresh-fallback')).toEqual([]);
  });

  it('comes back fresh, with a warning in the pane, when the transcript was deleted', async () => {
    const s = scene();
    const client = await serve(s);
    const n = randomNumber();

    const started = track(
      await client.call('run.start', { name: 'gone', agents: [{ vendor: c.vendor, label: 'one', cwd: s.work }] }),
    );
    const one = agentByLabel(started.agents, 'one');
    const oldId = one.sessionId!;
    await ready(client, one.id, c);
    await ask(client, one.id, `remember the number ${n}`, `OK, I will remember ${n}.`, WAIT_MS);
    await confirmed(client, 'gone', ['one']);
    await client.call('run.snapshot', { run: 'gone' });
    const { handle } = await client.call('run.handle', { run: 'gone' });
    await client.call('run.stop', { run: 'gone' });

    c.remove(s.home, oldId);
    expect(c.transcripts(s.home, oldId)).toEqual([]);
    const preview = await client.call('handle.inspect', { handle });
    expect(preview.agents.map((a) => a.check)).toEqual(['missing']);

    const warnings: string[] = [];
    client.on('agent.warning', (w) => warnings.push(w.message));
    const resumed = await client.call('run.resume', { handle });
    track(resumed.run);
    const [outcome] = resumed.outcomes;
    expect(outcome?.outcome).toBe('fresh');
    expect(outcome?.sessionId).toMatch(UUID_V4);
    expect(outcome?.sessionId).not.toBe(oldId);
    expect(outcome?.message).toContain('starting a fresh conversation');
    expect(outcome?.message).toContain(`session ${oldId.slice(0, 8)}…`);
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
    const view = await confirmed(client, 'gone', ['one']);
    expect(agentByLabel(view.agents, 'one').sessionIds.map((x) => x.id)).toEqual([oldId, outcome!.sessionId]);
    expect(c.storedId(s.home, outcome!.sessionId!)).toBe(outcome!.sessionId);
    const events = await client.call('run.events', { run: 'gone' });
    expect(events.filter((e) => e.type === 'fresh-fallback').map((e) => e.agentId)).toEqual([one.id]);
  });
});

describe('gemini: two agents in one directory', () => {
  it('get distinct ids in one run.start, and each is resumed into its own conversation', async () => {
    const c = byVendor('gemini');
    const s = scene();
    const client = await serve(s);
    const a = randomNumber();
    const b = randomNumber([a]);

    const started = track(
      await client.call('run.start', {
        name: 'twins',
        agents: [
          { vendor: 'gemini', label: 'left', cwd: s.work },
          { vendor: 'gemini', label: 'right', cwd: s.work },
        ],
      }),
    );
    const left = agentByLabel(started.agents, 'left');
    const right = agentByLabel(started.agents, 'right');
    expect(left.cwd).toBe(right.cwd);
    expect(left.sessionId).toMatch(UUID_V4);
    expect(right.sessionId).toMatch(UUID_V4);
    expect(left.sessionId).not.toBe(right.sessionId);

    await Promise.all([ready(client, left.id, c), ready(client, right.id, c)]);
    await Promise.all([
      ask(client, left.id, `remember the number ${a}`, `OK, I will remember ${a}.`, WAIT_MS),
      ask(client, right.id, `remember the number ${b}`, `OK, I will remember ${b}.`, WAIT_MS),
    ]);
    await confirmed(client, 'twins', ['left', 'right']);

    // One project, two chat files, each holding its own agent's number only.
    const files = geminiChats(s.home);
    expect(files).toHaveLength(2);
    const leftFile = c.transcripts(s.home, left.sessionId!);
    const rightFile = c.transcripts(s.home, right.sessionId!);
    expect(leftFile).toHaveLength(1);
    expect(rightFile).toHaveLength(1);
    expect(readFileSync(leftFile[0]!, 'utf8')).toContain(`remember the number ${a}`);
    expect(readFileSync(leftFile[0]!, 'utf8')).not.toContain(`remember the number ${b}`);
    expect(readFileSync(rightFile[0]!, 'utf8')).toContain(`remember the number ${b}`);
    const projects = JSON.parse(readFileSync(join(s.home, '.gemini', 'projects.json'), 'utf8')) as {
      projects: Record<string, string>;
    };
    expect(Object.keys(projects.projects)).toEqual([s.work]);

    await client.call('run.snapshot', { run: 'twins' });
    const { handle } = await client.call('run.handle', { run: 'twins' });
    await client.call('run.stop', { run: 'twins' });

    const resumed = await client.call('run.resume', { handle });
    track(resumed.run);
    expect(resumed.outcomes.map((o) => [o.label, o.outcome, o.sessionId])).toEqual([
      ['left', 'resumed', left.sessionId],
      ['right', 'resumed', right.sessionId],
    ]);
    await Promise.all([ready(client, left.id, c), ready(client, right.id, c)]);
    const [textLeft, textRight] = await Promise.all([
      ask(client, left.id, QUESTION, `The number is ${a}.`, WAIT_MS),
      ask(client, right.id, QUESTION, `The number is ${b}.`, WAIT_MS),
    ]);
    // Whole phrases, not bare digits: a session id or timestamp on screen may contain any 4 digits.
    for (const phrase of [`remember the number ${b}`, `The number is ${b}`]) expect(textLeft).not.toContain(phrase);
    for (const phrase of [`remember the number ${a}`, `The number is ${a}`]) expect(textRight).not.toContain(phrase);
  });
});
