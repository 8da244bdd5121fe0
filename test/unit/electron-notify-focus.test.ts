// A desktop notification names its agent: clicking it shows the window and sends the page that agent's ids over the
// focus channel (never "the next agent that needs me", which would be the one that waited longest), and the preload's
// and the page's check refuses anything but exactly `{ runId, agentId }` of Baton's shapes. Main's side runs on the
// fake Electron module with the real relay and a real background core whose fake Claude reports through its hooks.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANNELS, parseFocusAgentMessage, type FocusAgentMessage } from '../../shared/bridge-contract.js';
import { RpcClient } from '../../shared/client.js';
import { AGENT_ID, RUN_ID } from '../../shared/words.js';
import { startDesktop, type Desktop } from '../../electron/app/desktop.js';
import { portMainWire } from '../../electron/app/main-client.js';
import { stopCoreOf } from '../helpers/core.js';
import { testEnv, waitFor } from '../helpers/server.js';
import {
  FakeBrowserWindow,
  FakeNotification,
  fakeElectron,
  realRelay,
  realSpawn,
  until,
  type FakeElectron,
} from './electron-fake.js';

const ROOT = resolve(import.meta.dirname, '../..');
const RUN = 'run_0123456789abcdef';
const AGENT = 'agt_0123456789abcdef';

describe('the focus message a notification click sends', () => {
  it('is exactly a run id and an agent id of Baton’s shapes', () => {
    expect(parseFocusAgentMessage({ runId: RUN, agentId: AGENT })).toEqual({ runId: RUN, agentId: AGENT });
    expect(parseFocusAgentMessage({ agentId: AGENT, runId: RUN })).toEqual({ runId: RUN, agentId: AGENT });
    for (const bad of [
      null,
      undefined,
      'agt_0123456789abcdef',
      [RUN, AGENT],
      { agentId: AGENT },
      { runId: RUN },
      { runId: RUN, agentId: AGENT, command: 'attention.next' },
      { runId: AGENT, agentId: RUN },
      { runId: RUN, agentId: 'agt_0123456789ABCDEF' },
      { runId: RUN, agentId: 'agt_0123456789abcdef"]' },
      { runId: RUN, agentId: `${AGENT}\n` },
      { runId: 1, agentId: AGENT },
      { runId: 'run_x', agentId: AGENT },
    ]) {
      expect(parseFocusAgentMessage(bad), JSON.stringify(bad) ?? String(bad)).toBeNull();
    }
  });

  it('takes the same ids as the contract (shared/words.ts)', () => {
    for (const id of ['agt_0123456789abcdef', 'agt_0123456789abcde', 'agt_0123456789abcdefg', 'agt_zzzzzzzzzzzzzzzz']) {
      expect(parseFocusAgentMessage({ runId: RUN, agentId: id }) !== null, id).toBe(AGENT_ID.test(id));
    }
    for (const id of ['run_0123456789abcdef', 'run_0123456789abcd-f', 'run_0123456789abcdef0']) {
      expect(parseFocusAgentMessage({ runId: id, agentId: AGENT }) !== null, id).toBe(RUN_ID.test(id));
    }
  });
});

describe('a desktop notification click', () => {
  let root: string;
  let dataDir: string;
  let desktop: Desktop | null = null;
  let client: RpcClient | null = null;

  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'baton-notify-focus-')));
    dataDir = join(root, 'data');
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    client?.close();
    desktop?.core.close();
    desktop?.relay.close();
    await stopCoreOf(dataDir);
    rmSync(root, { recursive: true, force: true });
  });

  it('sends the page the agent it named, not the one that waited longest; the badge counts both until answered', async () => {
    const env = { ...testEnv(join(root, 'home'), { FAKE_CLAUDE_DELAY_MS: '1500' }), BATON_HOME: dataDir };
    const fake: FakeElectron = fakeElectron(join(root, 'userData'), realRelay, realSpawn);
    desktop = startDesktop(fake.api, { packageRoot: ROOT, args: [], cwd: ROOT, platform: 'linux', env })!;
    await desktop.ready;
    await desktop.core.firstAttempt;
    const win = FakeBrowserWindow.all.at(-1)!;
    const page = win.webContents;
    fake.ipcMain.send(CHANNELS.connect, page.event());
    const handed = page.posted.filter((p) => p.channel === CHANNELS.port).at(-1)!;
    client = new RpcClient(portMainWire(handed.ports[0]! as never));
    win.blur(); // The user looks elsewhere: main notifies.

    const run = await client.call('run.start', {
      name: 'pair',
      agents: ['alpha', 'beta'].map((label) => ({ vendor: 'claude' as const, label, cwd: root })),
    });
    const [alpha, beta] = run.agents;
    for (const a of [alpha!, beta!]) {
      await waitFor(async () => (await client!.call('agent.screen', { agentId: a.id })).text.includes('❯'), 'a prompt');
    }
    // alpha starts waiting first, then beta: "next agent that needs me" would be alpha.
    await client.call('agent.send', { agentId: alpha!.id, text: 'remember the number 7' });
    await until(() => FakeNotification.shown.length === 1, 'the notice about alpha');
    await client.call('agent.send', { agentId: beta!.id, text: 'remember the number 8' });
    await until(() => FakeNotification.shown.length === 2, 'the notice about beta');
    expect(FakeNotification.shown.map((n) => n.options.title)).toEqual([
      'alpha is waiting for you (pair)',
      'beta is waiting for you (pair)',
    ]);
    expect(fake.app.badge).toBe(2);

    const focusSent = (): FocusAgentMessage[] =>
      page.sent.filter((s) => s.channel === CHANNELS.focusAgent).map((s) => s.args[0] as FocusAgentMessage);
    FakeNotification.shown[1]!.emit('click');
    expect(focusSent()).toEqual([{ runId: run.id, agentId: beta!.id }]);
    expect(win.isFocused()).toBe(true);
    expect(page.sent.filter((s) => s.channel === CHANNELS.menu)).toEqual([]);
    FakeNotification.shown[0]!.emit('click');
    expect(focusSent().at(-1)).toEqual({ runId: run.id, agentId: alpha!.id });

    // Answering one lowers the badge to the one still waiting (its turn lasts 1.5 s).
    await client.call('agent.send', { agentId: beta!.id, text: 'and 9' });
    await until(() => fake.app.badge === 1, 'the badge to count alpha only');
  }, 60_000);
});
