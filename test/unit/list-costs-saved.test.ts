// The stopped runs' cost sums a core saves for the next one (cost/cost-file.ts, list-costs.ts): the next core's first
// run.list answers from them without reading a transcript, a run changed since its sum was saved is summed again, and
// a transcript that grew while no core ran gets a fresh sum soon after open, announced with cost.changed.
import { appendFile, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { costFile } from '../../electron/core/cost/cost-file.js';
import { CostService } from '../../electron/core/cost/cost-service.js';
import { ListCosts, RESUM_SAVED_AFTER_MS } from '../../electron/core/cost/list-costs.js';
import type { AgentRecord, RunManifest } from '../../electron/core/store/types.js';
import { encodeClaudeCwd } from '../../electron/core/vendors/claude/store.js';
import { createVendors } from '../../electron/core/vendors/registry.js';

const SESSION_A = '11111111-2222-4333-8444-555555555555';
const SESSION_B = '22222222-3333-4444-8555-666666666666';
const RUN_A = 'run_0123456789abcdef';
const RUN_B = 'run_fedcba9876543210';

let tmp: string;
let cwd: string;
let projects: string;
let env: Record<string, string>;
let file: string;

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-cost-saved-')));
  cwd = join(tmp, 'proj');
  await mkdir(cwd);
  projects = join(tmp, 'home', '.claude', 'projects', encodeClaudeCwd(cwd));
  await mkdir(projects, { recursive: true });
  env = { HOME: join(tmp, 'home'), PATH: '/usr/bin:/bin' };
  file = join(tmp, 'run-costs.json');
});

afterEach(async () => {
  vi.useRealTimers();
  await rm(tmp, { recursive: true, force: true });
});

/** One answer of Claude's, with its token counts as its transcript records them. */
const call = (session: string, msg: string, input: number, output: number) =>
  JSON.stringify({
    type: 'assistant',
    sessionId: session,
    requestId: `req_${msg}`,
    uuid: msg,
    message: {
      id: `msg_${msg}`,
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: msg }],
      usage: { input_tokens: input, output_tokens: output, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    },
  });
const transcript = (session: string) => join(projects, `${session}.jsonl`);

function run(id: string, session: string, updatedAt = '2026-11-25T21:47:05.000Z'): RunManifest {
  const agent: AgentRecord = {
    id: `agt_${id.slice(4)}`,
    label: 'claude',
    vendor: 'claude',
    cwd,
    args: [],
    command: null,
    sessionIds: [{ id: session, chosenBy: 'baton', seenAt: updatedAt, confirmed: true }],
    status: 'stopped',
    exitCode: 0,
    warning: null,
    startedAt: null,
  };
  return { v: 1, id, name: id, createdAt: updatedAt, updatedAt, agents: [agent], lastSnapshot: null };
}

/** A core's cost lists over `file`, counting the runs it sums. */
function core() {
  const service = new CostService(createVendors(), env, tmp);
  const summed: string[] = [];
  const counting = {
    totalsOnce: (r: RunManifest, ...rest: unknown[]) => {
      summed.push(r.id);
      return service.totalsOnce(r, ...(rest as []));
    },
  };
  return { lists: new ListCosts(counting, file), summed, service };
}

describe('run.list cost sums saved across cores', () => {
  it('the next core answers from the saved sums, and sums again a run changed since and a transcript that grew', async () => {
    await writeFile(transcript(SESSION_A), `${call(SESSION_A, 'a1', 100, 10)}\n`);
    await writeFile(transcript(SESSION_B), `${call(SESSION_B, 'b1', 200, 20)}\n`);
    const runs = [run(RUN_A, SESSION_A), run(RUN_B, SESSION_B)];

    const first = core();
    first.lists.warm(runs);
    const listed = await first.lists.of(runs, () => undefined, 10_000);
    expect(listed.get(RUN_A)?.tokens).toBe(110);
    expect(listed.get(RUN_B)?.tokens).toBe(220);
    await first.lists.settled();
    await first.lists.flush();
    expect([...(await costFile.read(file)).keys()].sort()).toEqual([RUN_A, RUN_B].sort());

    // While no core runs, A's session is resumed outside Baton (its transcript grows) and B's run is renamed.
    await appendFile(transcript(SESSION_A), `${call(SESSION_A, 'a2', 1000, 100)}\n`);
    const next = [run(RUN_A, SESSION_A), run(RUN_B, SESSION_B, '2026-11-26T08:00:00.000Z')];

    const second = core();
    second.lists.warm(next);
    const announced: string[][] = [];
    const firstList = await second.lists.of(next, (ids) => announced.push(ids), 10_000);
    // A's saved sum answers at once, unread; B changed since its sum was saved, so it is summed.
    expect(second.summed).toEqual([RUN_B]);
    expect(firstList.get(RUN_A)?.tokens).toBe(110);
    expect(firstList.get(RUN_B)?.tokens).toBe(220);

    // A list a little after open gives the saved sum and has it made again behind it: the change is announced.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + RESUM_SAVED_AFTER_MS + 1000);
    const later = await second.lists.of(next, (ids) => announced.push(ids), 10_000);
    expect(later.get(RUN_A)?.tokens).toBe(110);
    await second.lists.settled();
    expect(announced).toEqual([[RUN_A]]);
    const fresh = await second.lists.of(next, (ids) => announced.push(ids), 10_000);
    const alone = await new CostService(createVendors(), env, tmp).totals(next[0]!);
    expect(fresh.get(RUN_A)).toEqual(alone.total);
    expect(fresh.get(RUN_A)?.tokens).toBe(1210);

    // What the next core finds is the fresh sum.
    await second.lists.flush();
    const third = core();
    third.lists.warm(next);
    expect((await third.lists.of(next, () => undefined, 10_000)).get(RUN_A)?.tokens).toBe(1210);
    expect(third.summed).toEqual([]);
  });

  it('a damaged file is ignored: every run is summed', async () => {
    await writeFile(transcript(SESSION_A), `${call(SESSION_A, 'a1', 100, 10)}\n`);
    await writeFile(file, '{"v":1,"runs":{"run_0123456789abcdef":{"updatedAt":"x","total":{"tokens":-1}}}}');
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const c = core();
    c.lists.warm([run(RUN_A, SESSION_A)]);
    const listed = await c.lists.of([run(RUN_A, SESSION_A)], () => undefined, 10_000);
    stderr.mockRestore();
    expect(c.summed).toEqual([RUN_A]);
    expect(listed.get(RUN_A)?.tokens).toBe(110);
  });
});
