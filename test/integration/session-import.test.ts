// Session import end to end: a conversation is had with the fake Claude Code CLI run directly in a PTY (outside
// Baton), then a real `baton serve` lists it (sessions.list) and adopts it into a run (sessions.adopt) whose agent
// answers from that old conversation.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BatonError } from '../../shared/contract.js';
import { ask, startServer, waitFor } from '../helpers/server.js';
import { tempMachine } from '../helpers/temp-machine.js';
import {
  agentPids,
  clients,
  conversationOutsideBaton,
  dirs,
  servers,
  useServedCleanup,
} from '../helpers/served-vendors.js';

useServedCleanup();

describe('session import through baton serve', () => {
  it('lists a Claude conversation started outside Baton and adopts it into a run that remembers it', async () => {
    const { root, data, work, env } = tempMachine('baton-session-import-');
    dirs.push(root);
    const n = 100 + Math.floor(Math.random() * 900);

    await conversationOutsideBaton(work, env, `remember the number ${n}`, `OK, I will remember ${n}.`);

    const server = await startServer(data, env);
    servers.push(server);
    const client = await server.connect();
    clients.push(client);

    // Listed, with the directory and prompt read from the transcript.
    const listed = await client.call('sessions.list', { vendor: 'claude' });
    expect(listed.total).toBe(1);
    const found = listed.sessions[0]!;
    expect(found).toMatchObject({
      vendor: 'claude',
      cwd: work,
      firstPrompt: `remember the number ${n}`,
      title: null,
      adoptedBy: null,
    });
    expect(Date.now() - Date.parse(found.lastActivity)).toBeLessThan(120_000);
    expect((await client.call('sessions.list', { query: `number ${n}` })).sessions.map((s) => s.sessionId)).toEqual([
      found.sessionId,
    ]);
    expect((await client.call('sessions.list', { query: 'nothing like this' })).total).toBe(0);
    expect((await client.call('sessions.list', { vendor: 'gemini' })).total).toBe(0);

    // Adopted: a new run whose agent resumes that very conversation.
    const { run, outcomes } = await client.call('sessions.adopt', {
      name: 'adopted',
      sessions: [{ vendor: 'claude', sessionId: found.sessionId, cwd: work }],
    });
    expect(run.name).toBe('adopted');
    expect(outcomes).toEqual([
      expect.objectContaining({ label: 'claude', vendor: 'claude', outcome: 'resumed', sessionId: found.sessionId }),
    ]);
    const agent = run.agents[0]!;
    if (agent.pid !== null) agentPids.add(agent.pid);
    expect(agent).toMatchObject({ vendor: 'claude', cwd: work, sessionId: found.sessionId, status: 'running' });
    await waitFor(
      async () => (await client.call('agent.screen', { agentId: agent.id })).text.includes('? for shortcuts'),
      'the adopted agent prompt',
    );
    const text = await ask(client, agent.id, 'what number did I ask you to remember', `The number is ${n}.`);
    expect(text).toContain(`remember the number ${n}`); // the old turns came back with it

    // Now marked as held by that run; adopting it again is refused, and so is a name in use.
    const after = await client.call('sessions.list', {});
    expect(after.sessions.find((s) => s.sessionId === found.sessionId)?.adoptedBy).toEqual({
      runId: run.id,
      runName: 'adopted',
    });
    await expect(
      client.call('sessions.adopt', {
        name: 'again',
        sessions: [{ vendor: 'claude', sessionId: found.sessionId, cwd: work }],
      }),
    ).rejects.toMatchObject({
      code: 'conflict',
      field: 'sessions[0]',
    });
    await expect(
      client.call('sessions.adopt', {
        name: 'adopted',
        sessions: [{ vendor: 'claude', sessionId: '00000000-0000-4000-8000-000000000000', cwd: work }],
      }),
    ).rejects.toMatchObject({ code: 'conflict', message: "a run named 'adopted' already exists" });

    // The usual resume validation, naming the request's fields.
    const gone = await client
      .call('sessions.adopt', {
        name: 'bad dir',
        sessions: [{ vendor: 'claude', sessionId: '00000000-0000-4000-8000-000000000000', cwd: join(root, 'gone') }],
      })
      .catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(BatonError);
    expect(gone).toMatchObject({ code: 'invalid', field: 'sessions[0].cwd' });
    expect((await client.call('run.list', {})).map((r) => r.name)).toEqual(['adopted']);
  });
});
