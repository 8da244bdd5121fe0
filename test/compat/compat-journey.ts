// One vendor's compat journey through a real `baton serve`: start a run, type "remember the number N", snapshot,
// stop, resume from the handle, ask, and see N come back on the screen and in the mock's log; a control run that was
// not resumed must not know N; after every stop no process of the agent remains.
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { AgentView, RunView } from '../../shared/contract.js';
import type { AgentContext, VendorAdapter } from '../../electron/core/vendors/adapter.js';
import { killMarks } from '../helpers/processes.js';
import { startServer, tempDir, waitFor, type ServerProcess } from '../helpers/server.js';
import { type CompatVendor } from './install.js';
import { DONT_KNOW, recallReply, rememberReply, type LoggedRequest } from './mock-model.js';
import { conversationCalls, describeCalls, readCost } from './cost-check.js';
import { HOME_OF, baseEnv, type CompatVendorSpec } from './vendors.js';
import { QUESTION, KEEP, mock, seconds, sleep, resumeArgvSeen } from './compat-harness.js';
import { waitScreen, escapeRe, say } from './compat-screens.js';
import { retriesNote } from './send-text.js';
import { processesWithHome, agentTree, expectNoOrphans } from './compat-processes.js';

// ---------- the journey ----------

interface Journey {
  root: string;
  home: string;
  cwd: string;
  env: Record<string, string>;
  server: ServerProcess | null;
  clients: RpcClient[];
}

export function prepare(vendor: CompatVendor, spec: CompatVendorSpec, bin: string, versionText: string): Journey {
  const root = realpathSync(tempDir(`baton-compat-${vendor}-`));
  const home = HOME_OF(root);
  const cwd = join(root, 'project');
  mkdirSync(cwd, { recursive: true });
  const env = {
    ...baseEnv(home),
    ...spec.setup({ root, cwd, mockUrl: mock.url, version: versionText }),
    [`BATON_${vendor.toUpperCase()}_BIN`]: bin,
  };
  return { root, home, cwd, env, server: null, clients: [] };
}

export async function teardown(j: Journey, failed: boolean): Promise<void> {
  for (const c of j.clients.splice(0)) c.close();
  if (j.server) {
    const s = j.server;
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    const ended = await Promise.race([s.exited, sleep(15_000).then(() => null)]);
    if (ended === null) {
      s.child.kill('SIGKILL');
      await s.exited;
    }
  }
  // Whatever this journey started and is still there (after a failure): end it by pid.
  killMarks(processesWithHome(j.home, []).map((p) => p.mark));
  // A failed journey's folder (its HOME: the CLI's own logs and transcripts) is kept for a person to look at; not in CI.
  if (KEEP || (failed && !process.env.CI)) process.stderr.write(`compat: kept ${j.root} for inspection\n`);
  else rmSync(j.root, { recursive: true, force: true });
}

function agentOf(run: RunView): AgentView {
  const a = run.agents[0];
  if (!a) throw new Error(`run ${run.name} has no agent`);
  return a;
}

export async function journey(
  vendor: CompatVendor,
  spec: CompatVendorSpec,
  bin: string,
  versionText: string,
  adapter: VendorAdapter,
): Promise<string> {
  const j = prepare(vendor, spec, bin, versionText);
  const n = String(10_000 + Math.floor(Math.random() * 90_000));
  const notes: string[] = [];
  const times: string[] = [];
  let t = Date.now();
  const lap = (what: string) => {
    times.push(`${what} ${seconds(t)}s`);
    t = Date.now();
  };
  let failed = true;
  const journeyMark = mock.mark();
  try {
    j.server = await startServer(join(j.root, 'data'), j.env);
    const serverPid = j.server.child.pid!;
    const client = await j.server.connect();
    j.clients.push(client);

    // 1. A run with one agent of this vendor; tell it the number.
    const started = await client.call('run.start', {
      name: `compat-${vendor}`,
      agents: [{ vendor, label: 'agent', cwd: j.cwd, args: [...spec.args] }],
    });
    const first = agentOf(started);
    expect(first.status, `the ${vendor} agent did not start: ${first.warning ?? ''}`).toBe('running');
    await waitScreen(client, first.id, spec.ready, spec.readyMs, `the ${vendor} prompt (${spec.ready.join(' or ')})`);
    lap('start');
    const told = await say(client, first.id, `remember the number ${n}`, new RegExp(escapeRe(rememberReply(n))), spec);
    const toldRetries = retriesNote(told);
    if (toldRetries) notes.push(`the first prompt needed ${toldRetries}`);
    lap('remember');

    // 2. Snapshot once Baton knows the vendor's session (Codex: discovered; the others: chosen and confirmed).
    const known = await waitFor(
      async () => {
        const r = await client.call('run.get', { run: started.id });
        const a = agentOf(r);
        return a.sessionId && a.sessionIds.at(-1)?.confirmed ? a : undefined;
      },
      `Baton to know and confirm the ${vendor} session`,
      30_000,
    );
    const sessionId = known.sessionId!;
    await client.call('run.snapshot', { run: started.id });
    const { handle } = await client.call('run.handle', { run: started.id });

    // 3. Stop: nothing of the agent may remain.
    const treeOne = agentTree(known.pid);
    expect(treeOne.length, 'the agent process tree was found').toBeGreaterThan(0);
    // The orphan check below finds processes by this journey's HOME: it must see the live agent now.
    expect(
      processesWithHome(j.home, [serverPid]).map((p) => p.pid),
      'the HOME scan sees the live agent',
    ).toContain(known.pid);
    const stopped = await client.call('run.stop', { run: started.id });
    expect(agentOf(stopped).pid).toBeNull();
    await expectNoOrphans(vendor, treeOne, j.home, serverPid, 'after run.stop');
    lap('snapshot+stop');

    // What Baton would run to resume, as the flag check will verify against --help.
    const ctx: AgentContext = { runName: `compat-${vendor}`, label: 'agent', cwd: j.cwd, args: [], command: null };
    const resumePlan = await adapter.planResume(
      ctx,
      { sessionId, chosenBy: known.sessionIds.at(-1)!.chosenBy, confirmed: true },
      j.env,
    );
    expect(resumePlan.outcome, `${vendor}: the adapter plans to resume the session it just had`).toBe('resumed');
    resumeArgvSeen.set(vendor, resumePlan.argv);

    // 4. Resume from the handle and ask: the number comes back, from the history the CLI sent again.
    const resumed = await client.call('run.resume', { handle });
    expect(resumed.outcomes.map((o) => `${o.outcome} ${o.message ?? ''}`.trim())).toEqual(['resumed']);
    const second = agentOf(resumed.run);
    expect(second.sessionId).toBe(sessionId);
    await waitScreen(client, second.id, spec.ready, spec.readyMs, `the resumed ${vendor} prompt`);
    lap('resume');
    const asked = await say(client, second.id, QUESTION, new RegExp(escapeRe(recallReply(n))), spec);
    const askedRetries = retriesNote(asked);
    if (askedRetries) notes.push(`the question after resume needed ${askedRetries}`);
    const fromHistory = asked.requests.filter(
      (e) =>
        e.lastUser.includes(QUESTION) &&
        !e.lastUser.includes(n) &&
        e.historyNumber === n &&
        e.fromHistory &&
        e.reply === recallReply(n),
    );
    expect(
      fromHistory.length,
      `the mock saw the resumed ${vendor} send N=${n} in its history: ${summarise(asked.requests)}`,
    ).toBeGreaterThan(0);
    lap('recall');

    // 4b. Cost: the tokens Baton reads from the transcripts this CLI wrote are exactly what the mock reported.
    const { calls, unrecorded } = conversationCalls(
      mock.log().filter((e) => e.seq > journeyMark),
      spec.unrecordedCalls,
    );
    const cost = await readCost(client, started.id, calls, 15_000);
    expect(
      cost.read,
      `${vendor}: tokens read from its transcripts (${cost.cost.agents[0]?.note ?? 'no note'}) vs the mock's calls: ${describeCalls(calls)}`,
    ).toEqual({ input: cost.expected.input, cached: cost.expected.cached, output: cost.expected.output });
    notes.push(
      `cost: ${cost.expected.calls} calls, ${cost.expected.input} in (${cost.expected.cached} from cache) + ${cost.expected.output} out read exactly` +
        (unrecorded.length > 0
          ? `; ${unrecorded.length} other model calls the CLI made that its transcript does not record (titles, routing, side calls)`
          : ''),
    );

    const treeTwo = agentTree(agentOf(await client.call('run.get', { run: started.id })).pid);
    await client.call('run.stop', { run: started.id });
    await expectNoOrphans(vendor, treeTwo, j.home, serverPid, 'after stopping the resumed agent');

    // 5. Control: a run that was not resumed, in the same directory, does not know the number.
    const control = await client.call('run.start', {
      name: `compat-${vendor}-control`,
      agents: [{ vendor, label: 'control', cwd: j.cwd, args: [...spec.args] }],
    });
    const fresh = agentOf(control);
    expect(fresh.status).toBe('running');
    expect(
      fresh.sessionId === null || fresh.sessionId !== sessionId,
      'the control agent has a session of its own',
    ).toBe(true);
    await waitScreen(client, fresh.id, spec.ready, spec.readyMs, `the control ${vendor} prompt`);
    const unknown = await say(client, fresh.id, QUESTION, new RegExp(escapeRe(DONT_KNOW)), spec);
    const unknownRetries = retriesNote(unknown);
    if (unknownRetries) notes.push(`the control question needed ${unknownRetries}`);
    expect(unknown.screen).not.toContain(recallReply(n));
    const controlTurns = unknown.requests.filter((e) => e.lastUser.includes(QUESTION));
    expect(
      controlTurns.some((e) => e.reply === DONT_KNOW),
      summarise(unknown.requests),
    ).toBe(true);
    expect(
      controlTurns.filter((e) => e.historyNumber === n),
      'the control run sent no history with N',
    ).toEqual([]);
    lap('control');

    const treeThree = agentTree(agentOf(await client.call('run.get', { run: control.id })).pid);
    await client.call('run.stop', { run: control.id });
    await expectNoOrphans(vendor, treeThree, j.home, serverPid, 'after stopping the control agent');

    // 6. The server goes too: nothing started for this journey outlives it.
    for (const c of j.clients.splice(0)) c.close();
    j.server.child.kill('SIGTERM');
    expect(await j.server.exited).toEqual({ code: 0, signal: null });
    await expectNoOrphans(vendor, [], j.home, -1, 'after baton serve stopped');
    j.server = null;
    failed = false;
    return [`N=${n}`, times.join(', '), ...notes].join('; ');
  } catch (err) {
    if (j.server && err instanceof Error)
      err.message += `\n--- baton serve output (tail) ---\n${j.server.output().slice(-3000)}`;
    if (err instanceof Error) err.message += `\n--- mock log (last 12) ---\n${summarise(mock.log().slice(-12))}`;
    throw err;
  } finally {
    await teardown(j, failed);
  }
}

function summarise(entries: readonly LoggedRequest[]): string {
  return entries
    .map(
      (e) =>
        `#${e.seq} ${e.method} ${e.path} ${e.api} users=${e.userMessages} hist=${e.historyNumber ?? '-'} last="${e.lastUser.slice(-60).replace(/\s+/g, ' ')}" -> ${e.status} "${e.reply.slice(0, 40)}"`,
    )
    .join('\n');
}
