// Codex agents through a real `baton serve`, the real WebSocket client and the fake Codex CLI (a node wrapper whose
// native child holds the thread's writer lock, as the real CLI does). The id is discovered, never chosen; a run is
// snapshotted, stopped and resumed into the same conversation; a vanished rollout gives a fresh start with a warning;
// two agents in one directory never swap or share a conversation; nothing (no daemon either) outlives a stop.
import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentByLabel, screenText } from '../helpers/server.js';
import { descendants, waitAllGone } from '../helpers/processes.js';
import {
  UUID,
  QUESTION,
  useCodexCleanup,
  scene,
  randomNumber,
  serve,
  wait,
  ask,
  agentWhen,
  cmdline,
  locksHeldBelow,
  daemonsOf,
  treeOf,
  rolloutsOf,
} from './codex-scene.js';

useCodexCleanup();

describe('codex agents through baton serve', () => {
  it('discovers the id, remembers across snapshot, stop and resume, and leaves no process or daemon behind', async () => {
    const s = scene();
    const n = randomNumber();
    const { client } = await serve(s);

    const run = await client.call('run.start', {
      name: 'cx',
      agents: [{ vendor: 'codex', label: 'coder', cwd: s.proj }],
    });
    const started = agentByLabel(run.agents, 'coder');
    expect(started.status).toBe('running');
    const pid = started.pid!;
    treeOf(pid);

    // Discovered, not chosen: the id is the lock the native codex (the wrapper's child) holds.
    const seen = await agentWhen(client, 'cx', 'coder', (a) => a.sessionId !== null, 'the codex session id');
    const id = seen.sessionId!;
    expect(id).toMatch(UUID);
    expect(seen.sessionIds).toEqual([expect.objectContaining({ id, chosenBy: 'vendor', confirmed: false })]);
    expect(locksHeldBelow(pid, s.codexHome)).toEqual([id]);
    const native = descendants(pid).find((p) => cmdline(p.pid).some((a) => a.endsWith('codex-native.mjs')));
    expect(native).toBeDefined();
    const argv = cmdline(native!.pid);
    expect(argv).toContain('--no-daemon');
    expect(argv.join(' ')).toContain('-c features.daemon_auto_start=false');
    expect(argv).not.toContain('--dangerously-bypass-approvals-and-sandbox');

    await ask(client, started.id, `remember the number ${n}`, `OK, I will remember ${n}.`);
    await agentWhen(client, 'cx', 'coder', (a) => a.sessionIds.at(-1)?.confirmed === true, 'the session confirmed');
    expect(rolloutsOf(s.codexHome, id)).toHaveLength(1);

    await client.call('run.snapshot', { run: 'cx' });
    const { handle } = await client.call('run.handle', { run: 'cx' });
    const tree = treeOf(pid);
    expect(tree.length).toBeGreaterThanOrEqual(2);

    const stopped = await client.call('run.stop', { run: 'cx' });
    expect(stopped.agents.every((a) => a.pid === null)).toBe(true);
    expect(await waitAllGone(tree, 8000)).toEqual([]);
    expect(daemonsOf(s.codexHome)).toEqual([]);
    expect(existsSync(join(s.codexHome, 'fake-daemon.log'))).toBe(false);

    const resumed = await client.call('run.resume', { handle });
    expect(resumed.outcomes.map((o) => [o.label, o.outcome, o.sessionId])).toEqual([['coder', 'resumed', id]]);
    const again = agentByLabel(resumed.run.agents, 'coder');
    treeOf(again.pid!);
    // The model still knows the number, and the resumed TUI redrew the old turns above the answer.
    const answered = await ask(client, again.id, QUESTION, `The number is ${n}.`);
    expect(answered).toContain(`remember the number ${n}`);

    // The same thread, the same file, appended to.
    const after = await agentWhen(
      client,
      'cx',
      'coder',
      (a) => a.sessionIds.at(-1)?.confirmed === true,
      'the resumed session confirmed',
    );
    expect(after.sessionIds.map((x) => x.id)).toEqual([id]);
    const files = rolloutsOf(s.codexHome, id);
    expect(files).toHaveLength(1);
    const text = readFileSync(files[0]!, 'utf8');
    expect(text).toContain(`remember the number ${n}`);
    expect(text).toContain(QUESTION);
    expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ type: 'session_meta', payload: { id, cwd: s.proj } });

    const last = treeOf(again.pid!);
    await client.call('run.stop', { run: 'cx' });
    expect(await waitAllGone(last, 8000)).toEqual([]);
    expect(daemonsOf(s.codexHome)).toEqual([]);
  });

  it('a deleted rollout: the agent starts fresh with a warning and a newly discovered id', async () => {
    const s = scene();
    const n = randomNumber();
    const { client } = await serve(s);

    const run = await client.call('run.start', {
      name: 'cx',
      agents: [{ vendor: 'codex', label: 'coder', cwd: s.proj }],
    });
    const agent = agentByLabel(run.agents, 'coder');
    treeOf(agent.pid!);
    await ask(client, agent.id, `remember the number ${n}`, `OK, I will remember ${n}.`);
    const confirmed = await agentWhen(
      client,
      'cx',
      'coder',
      (a) => a.sessionIds.at(-1)?.confirmed === true,
      'the session confirmed',
    );
    const oldId = confirmed.sessionId!;
    await client.call('run.snapshot', { run: 'cx' });
    const { handle } = await client.call('run.handle', { run: 'cx' });
    await client.call('run.stop', { run: 'cx' });

    const files = rolloutsOf(s.codexHome, oldId);
    expect(files).toHaveLength(1);
    unlinkSync(files[0]!);

    const preview = await client.call('handle.inspect', { handle });
    expect(preview.agents.map((a) => a.check)).toEqual(['missing']);

    const warnings: { agentId: string; message: string }[] = [];
    client.on('agent.warning', (w) => warnings.push(w));
    const resumed = await client.call('run.resume', { handle });
    const outcome = resumed.outcomes[0]!;
    expect(outcome.outcome).toBe('fresh');
    expect(outcome.sessionId).toBeNull();
    expect(outcome.message).toBe(
      `codex: session ${oldId.slice(0, 8)}… is not in ~/.codex/sessions any more; starting a fresh conversation in ${s.proj}`,
    );
    expect(outcome.message).not.toContain(oldId);
    const fresh = agentByLabel(resumed.run.agents, 'coder');
    treeOf(fresh.pid!);

    const rediscovered = await agentWhen(
      client,
      'cx',
      'coder',
      (a) => a.sessionId !== null && a.sessionId !== oldId,
      'a new codex session id',
    );
    expect(rediscovered.sessionId).toMatch(UUID);
    expect(rediscovered.warning).toContain('fresh');
    expect(locksHeldBelow(fresh.pid!, s.codexHome)).toEqual([rediscovered.sessionId]);
    await wait(
      async () =>
        (await screenText(client, fresh.id)).split('\n').some((l) => l.includes('baton:') && l.includes('fresh')),
      'the warning in the pane',
    );
    await wait(() => warnings.some((w) => w.agentId === fresh.id), 'an agent.warning event');
    const events = await client.call('run.events', { run: 'cx' });
    expect(events.filter((e) => e.type === 'fresh-fallback').map((e) => e.agentId)).toEqual([fresh.id]);
    for (const e of events.filter((x) => x.type === 'fresh-fallback')) expect(e.message).not.toContain(oldId);
    expect(warnings.map((w) => w.message).join('\n')).not.toContain(oldId);

    const textNow = await ask(client, fresh.id, QUESTION, 'I do not know any number.');
    expect(textNow).not.toContain(`The number is ${n}`);

    const last = treeOf(fresh.pid!);
    await client.call('run.stop', { run: 'cx' });
    expect(await waitAllGone(last, 8000)).toEqual([]);
  });

  it('two codex agents started in one directory in one run.start get distinct ids and each resumes into its own conversation', async () => {
    const s = scene();
    const a = randomNumber();
    const b = randomNumber(a);
    const first = await serve(s);

    const run = await first.client.call('run.start', {
      name: 'pair',
      agents: [
        { vendor: 'codex', label: 'one', cwd: s.proj },
        { vendor: 'codex', label: 'two', cwd: s.proj },
      ],
    });
    const one = agentByLabel(run.agents, 'one');
    const two = agentByLabel(run.agents, 'two');
    for (const x of [one, two]) {
      expect(x.status).toBe('running');
      treeOf(x.pid!);
    }
    const c1 = first.client;
    const idOne = (await agentWhen(c1, 'pair', 'one', (x) => x.sessionId !== null, "one's id")).sessionId!;
    const idTwo = (await agentWhen(c1, 'pair', 'two', (x) => x.sessionId !== null, "two's id")).sessionId!;
    expect(idOne).toMatch(UUID);
    expect(idTwo).toMatch(UUID);
    expect(idOne).not.toBe(idTwo);
    // Each id is the lock held by that agent's own process, not the other's.
    expect(locksHeldBelow(one.pid!, s.codexHome)).toEqual([idOne]);
    expect(locksHeldBelow(two.pid!, s.codexHome)).toEqual([idTwo]);

    await Promise.all([
      ask(c1, one.id, `remember the number ${a}`, `OK, I will remember ${a}.`),
      ask(c1, two.id, `remember the number ${b}`, `OK, I will remember ${b}.`),
    ]);
    await wait(async () => {
      const r = await c1.call('run.get', { run: 'pair' });
      return r.agents.every((x) => x.sessionIds.at(-1)?.confirmed === true) ? r : undefined;
    }, 'both sessions confirmed');
    const confirmed = await c1.call('run.get', { run: 'pair' });
    expect(agentByLabel(confirmed.agents, 'one').sessionIds.map((x) => x.id)).toEqual([idOne]);
    expect(agentByLabel(confirmed.agents, 'two').sessionIds.map((x) => x.id)).toEqual([idTwo]);

    await c1.call('run.snapshot', { run: 'pair' });
    const { handle } = await c1.call('run.handle', { run: 'pair' });
    const trees = [...treeOf(one.pid!), ...treeOf(two.pid!)];
    await c1.call('run.stop', { run: 'pair' });
    expect(await waitAllGone(trees, 8000)).toEqual([]);
    expect(daemonsOf(s.codexHome)).toEqual([]);

    // A new server on a fresh data directory: only the handle and the vendor's store remain.
    c1.close();
    const second = await serve(s, join(s.data, '..', 'data-2'));
    const c2 = second.client;
    const resumed = await c2.call('run.resume', { handle });
    expect(resumed.outcomes.map((o) => [o.label, o.outcome, o.sessionId])).toEqual([
      ['one', 'resumed', idOne],
      ['two', 'resumed', idTwo],
    ]);
    const newOne = agentByLabel(resumed.run.agents, 'one');
    const newTwo = agentByLabel(resumed.run.agents, 'two');
    treeOf(newOne.pid!);
    treeOf(newTwo.pid!);
    const [textOne, textTwo] = await Promise.all([
      ask(c2, newOne.id, QUESTION, `The number is ${a}.`),
      ask(c2, newTwo.id, QUESTION, `The number is ${b}.`),
    ]);
    for (const phrase of [`remember the number ${b}`, `The number is ${b}`]) expect(textOne).not.toContain(phrase);
    for (const phrase of [`remember the number ${a}`, `The number is ${a}`]) expect(textTwo).not.toContain(phrase);
    expect(locksHeldBelow(newOne.pid!, s.codexHome)).toEqual([idOne]);
    expect(locksHeldBelow(newTwo.pid!, s.codexHome)).toEqual([idTwo]);

    const last = [...treeOf(newOne.pid!), ...treeOf(newTwo.pid!)];
    await c2.call('run.stop', { run: 'pair' });
    expect(await waitAllGone(last, 8000)).toEqual([]);
    expect(daemonsOf(s.codexHome)).toEqual([]);
  });
});
