// One `run.resume` reads each agent's vendor store once (docs/architecture.md §5): what the resume planner found while
// planning is what the preview check reports and what the launch records as confirmed. Counted in process, on the
// real core: at the adapters' store entries (exists, planResume, planResumeChecked), and for Claude at its store reader
// itself, which its follower never calls (it reads the live registry), so only the resume's own reads are counted.
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcClient, type Wire } from '../../shared/client.js';
import type { AgentView } from '../../shared/contract.js';
import type { VendorName } from '../../shared/words.js';
import { openCoreHost, type CoreHost } from '../../electron/core/host.js';
import { ClientSession } from '../../electron/core/transport/client-session.js';
import { CLAUDE_STORE } from '../../electron/core/vendors/claude/store.js';
import { FAKES, agentByLabel, ask, randomNumber, screenText, tempDir, testEnv, waitFor } from '../helpers/server.js';

const WAIT_MS = 20_000;
let core: CoreHost | null = null;
let root: string | null = null;

afterEach(async () => {
  await core?.close();
  core = null;
  if (root) rmSync(root, { recursive: true, force: true });
  root = null;
});

/** A client of the in-process core over a wire made of direct calls: the same session a socket would get. */
function connectInProcess(host: CoreHost): RpcClient {
  let deliver: (data: string | Uint8Array) => void = () => undefined;
  const session = new ClientSession(host, {
    send: (m) => deliver(JSON.stringify(m)),
    sendFrame: (frame) => deliver(frame),
  });
  const wire: Wire = {
    send: (data) => {
      if (typeof data === 'string') session.receive(data).catch(() => undefined);
      else session.receiveFrame(data);
    },
    onMessage: (listener) => {
      deliver = listener;
    },
    onClose: () => undefined,
    close: () => session.close(),
  };
  return new RpcClient(wire);
}

/** Counts calls of the named methods of `target`, in place (adapters and store readers are plain objects). */
function countCalls(target: object, names: readonly string[]): () => number {
  let n = 0;
  const methods = target as Record<string, unknown>;
  for (const name of names) {
    const original = methods[name];
    if (typeof original !== 'function') continue;
    methods[name] = (...args: unknown[]) => {
      n++;
      return (original as (...a: unknown[]) => unknown).apply(target, args);
    };
  }
  return () => n;
}

describe('store reads of one run.resume', () => {
  it('reads each agent’s vendor store once', async () => {
    root = realpathSync(tempDir('baton-reads-'));
    const home = join(root, 'home');
    const proj = join(root, 'proj');
    mkdirSync(proj, { recursive: true });
    const env = testEnv(home, {
      BATON_CODEX_BIN: join(FAKES, 'codex.mjs'),
      CODEX_HOME: join(home, '.codex'),
      FAKE_CODEX_DELAY_MS: '10',
      FAKE_CODEX_DAEMON_TTL_MS: '120000',
    });
    core = await openCoreHost({ dataDir: join(root, 'data'), env, version: '0.0.0-test' });
    const client = connectInProcess(core);

    const run = await client.call('run.start', {
      name: 'reads',
      agents: [
        { vendor: 'claude', label: 'c', cwd: proj },
        { vendor: 'codex', label: 'x', cwd: proj },
      ],
    });
    const n = randomNumber();
    for (const label of ['c', 'x']) {
      const agentId = agentByLabel(run.agents, label).id;
      await waitFor(
        async () => /for shortcuts|>/.test(await screenText(client, agentId)),
        `the prompt of ${label}`,
        WAIT_MS,
      );
      await ask(client, agentId, `remember the number ${n}`, `${n}`, WAIT_MS);
      await waitFor(
        async () => {
          const a: AgentView = agentByLabel((await client.call('run.get', { run: 'reads' })).agents, label);
          return a.sessionIds.at(-1)?.confirmed === true;
        },
        `the session of ${label} confirmed`,
        WAIT_MS,
      );
    }
    const { handle } = await client.call('run.handle', { run: 'reads' });
    await client.call('run.stop', { run: 'reads' });

    const vendors = core.service.vendors;
    const counters = new Map<VendorName, () => number>();
    for (const vendor of ['claude', 'codex'] as const)
      counters.set(vendor, countCalls(vendors.get(vendor)!, ['exists', 'planResume', 'planResumeChecked']));
    const claudeStoreReads = countCalls(vendors.context.state(CLAUDE_STORE), ['exists', 'held']);

    const readsSoFar = () => ({
      claude: counters.get('claude')!(),
      codex: counters.get('codex')!(),
      claudeStore: claudeStoreReads(),
    });

    const preview = await client.call('handle.inspect', { handle });
    expect(preview.agents.map((a) => a.check)).toEqual(['found', 'found']);
    const inspectReads = readsSoFar();
    process.stdout.write(`store reads in one handle.inspect: ${JSON.stringify(inspectReads)}\n`);
    expect(inspectReads).toEqual({ claude: 1, codex: 1, claudeStore: 1 });

    const resumed = await client.call('run.resume', { handle });
    expect(resumed.outcomes.map((o) => o.outcome)).toEqual(['resumed', 'resumed']);
    const after = readsSoFar();
    const resumeReads = {
      claude: after.claude - inspectReads.claude,
      codex: after.codex - inspectReads.codex,
      claudeStore: after.claudeStore - inspectReads.claudeStore,
    };
    process.stdout.write(`store reads in one run.resume: ${JSON.stringify(resumeReads)}\n`);
    expect(resumeReads).toEqual({ claude: 1, codex: 1, claudeStore: 1 });
    // What the plan found is what the launch recorded: the resumed ids stay confirmed.
    for (const a of resumed.run.agents) expect(a.sessionIds.at(-1)?.confirmed).toBe(true);
    client.close();
  });
});
