// Search across every transcript, end to end: fake Claude Code and Gemini CLIs write their real transcript formats,
// in a Baton run and in a terminal of the user's own (outside Baton); a real `baton serve` finds both with the right
// run and label, opens a conversation at a hit, resumes the outside one into a run, and `baton search` prints them.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchResult, SearchStatus } from '../../shared/contract.js';
import { runCli } from '../helpers/core.js';
import { tempMachine } from '../helpers/temp-machine.js';
import { FAKES, agentByLabel, ask, randomNumber, startServer, waitFor } from '../helpers/server.js';
import {
  agentPids,
  clients,
  conversationOutsideBaton,
  dirs,
  servers,
  useServedCleanup,
} from '../helpers/served-vendors.js';

useServedCleanup();

const where = (r: SearchResult) => `${r.vendor} ${r.holder ? `${r.holder.runName}/${r.holder.label}` : 'outside'}`;

describe('search across every transcript', () => {
  it("finds what agents said in Baton's runs and outside it, opens it, resumes it, and prints it from the CLI", async () => {
    const { root, data, work, env } = tempMachine('baton-search-', { BATON_GEMINI_BIN: join(FAKES, 'gemini.mjs') });
    dirs.push(root);
    const other = join(root, 'other');
    mkdirSync(other, { recursive: true });
    const inRun = randomNumber();
    const outside = randomNumber([inRun]);

    await conversationOutsideBaton(other, env, `remember the number ${outside}`, `OK, I will remember ${outside}.`);
    const server = await startServer(data, env);
    servers.push(server);
    const client = await server.connect();
    clients.push(client);
    const progress: SearchStatus[] = [];
    client.on('search.progress', (status) => progress.push(status));

    const started = await client.call('run.start', {
      name: 'alpha',
      agents: [
        { vendor: 'claude', label: 'planner', cwd: work },
        { vendor: 'gemini', label: 'coder', cwd: work },
      ],
    });
    for (const a of started.agents) if (a.pid !== null) agentPids.add(a.pid);
    for (const label of ['planner', 'coder']) {
      const agent = agentByLabel(started.agents, label);
      await waitFor(async () => (await client.call('agent.screen', { agentId: agent.id })).text.length > 0, label);
      await ask(client, agent.id, `remember the number ${inRun}`, `OK, I will remember ${inRun}.`, 20_000);
    }

    // Both agents' conversations, each with its run and label; the directory as the transcript says.
    const found = await waitFor(async () => {
      await client.call('search.refresh', {});
      const r = await client.call('search.query', { text: String(inRun) });
      return r.results.length === 2 ? r : undefined;
    }, 'both agents in the search results');
    expect(found.results.map(where).sort()).toEqual(['claude alpha/planner', 'gemini alpha/coder']);
    // The index told its progress as it went: passes ended with every conversation in it.
    expect(progress.at(-1)).toMatchObject({ state: 'ready', files: 3 });
    expect(found.results.every((r) => r.cwd === work)).toBe(true);
    const line = found.results[0]!.hits.flatMap((h) => h.lines).find((l) => l.match.length > 0)!;
    expect(line.text.slice(line.match[0]![0], line.match[0]![1])).toBe(String(inRun));

    // The outside conversation: no run; the filters narrow the results.
    const out = await client.call('search.query', { text: `number ${outside}` });
    expect(out.results.map(where)).toEqual(['claude outside']);
    expect(out.results[0]!.cwd).toBe(other);
    expect((await client.call('search.query', { text: String(inRun), vendor: 'gemini' })).results.map(where)).toEqual([
      'gemini alpha/coder',
    ]);
    expect((await client.call('search.query', { text: 'remember', run: 'alpha' })).total).toBe(2);
    expect((await client.call('search.query', { text: 'remember', dir: other })).results.map(where)).toEqual([
      'claude outside',
    ]);

    // Opened at the hit: the user's turn and the answer, in order.
    const hit = out.results[0]!.hits.find((h) => h.role === 'user')!;
    const transcript = await client.call('search.transcript', {
      vendor: 'claude',
      sessionId: out.results[0]!.sessionId,
      messageId: hit.messageId,
    });
    expect(transcript.messages.map((m) => `${m.role}: ${m.text}`)).toEqual([
      `user: remember the number ${outside}`,
      `assistant: OK, I will remember ${outside}.`,
    ]);
    expect(transcript.focus).toBe(0);

    // Resumed into the run: a new agent continues that conversation and remembers its number.
    const resumed = await client.call('search.resume', {
      vendor: 'claude',
      sessionId: out.results[0]!.sessionId,
      cwd: other,
      into: { run: 'alpha' },
    });
    expect(resumed.outcomes).toEqual([expect.objectContaining({ outcome: 'resumed', label: 'claude' })]);
    const added = agentByLabel(resumed.run.agents, 'claude');
    if (added.pid !== null) agentPids.add(added.pid);
    await ask(client, added.id, 'what number did I ask you to remember', `The number is ${outside}.`, 20_000);
    const held = await client.call('search.query', { text: `number ${outside}` });
    expect(held.results.map(where)).toEqual(['claude alpha/claude']);
    await expect(
      client.call('search.resume', {
        vendor: 'claude',
        sessionId: out.results[0]!.sessionId,
        cwd: other,
        into: { newRun: 'again' },
      }),
    ).rejects.toMatchObject({ code: 'conflict' });

    // The CLI: plain lines with the match in brackets, or the same result as JSON.
    const cliEnv = { ...env, BATON_HOME: server.dataDir };
    const plain = await runCli(['search', String(inRun), '--data-dir', server.dataDir], cliEnv);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("claude  run 'alpha' / planner");
    expect(plain.stdout).toContain(`[${inRun}]`);
    const asJson = await runCli(
      ['search', String(inRun), '--vendor', 'claude', '--json', '--data-dir', server.dataDir],
      cliEnv,
    );
    expect(asJson.code).toBe(0);
    const parsed = JSON.parse(asJson.stdout) as { results: SearchResult[] };
    expect(parsed.results.map(where)).toEqual(['claude alpha/planner']);
    const bad = await runCli(['search', 'x', '--vendor', 'nope', '--data-dir', server.dataDir], cliEnv);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--vendor must be one of');
  }, 120_000);
});
