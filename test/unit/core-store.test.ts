// The window's view of the core (renderer/state/core-store.ts), against a real core on its socket: the protocol
// handshake tells a desktop app newer than its core, and "Restart the core" asks that core to record its live runs,
// stop them and end (core.shutdown with resumeOnStart), for the next core to resume.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROTOCOL_VERSION } from '../../shared/contract.js';
import { connect } from '../../electron/cli/connect.js';
import { startSocketCore, type SocketCore } from '../../electron/serve-socket.js';
import { compareVersions, olderCoreReason, useCore } from '../../renderer/state/core-store.js';
import { testEnv, waitFor } from '../helpers/server.js';

let root: string;
let core: SocketCore;
let shutdowns = 0;

beforeEach(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'baton-core-store-')));
  mkdirSync(join(root, 'work'));
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  core = await startSocketCore({ dataDir: join(root, 'data'), env: testEnv(join(root, 'home')), version: '1.4.0' });
  core.core.onShutdown(() => shutdowns++);
});

afterEach(async () => {
  vi.restoreAllMocks();
  useCore.getState().connected(null);
  await core.closeTransport();
  await core.core.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the core as the window sees it', () => {
  it('knows the core after connecting: its version, pid and running agents; nothing is older when the versions match', async () => {
    const client = await connect({ socket: core.info.socket, token: core.info.token });
    useCore.getState().connected(client);
    await waitFor(() => useCore.getState().info, 'core.info after connecting');
    expect(useCore.getState().info).toMatchObject({
      version: '1.4.0',
      protocolVersion: PROTOCOL_VERSION,
      pid: process.pid,
      liveAgents: 0,
    });
    useCore.getState().setAppVersion('1.4.0');
    expect(olderCoreReason(useCore.getState())).toBeNull();
    await waitFor(() => useCore.getState().settings, 'the core settings');
    expect(useCore.getState().settings).toEqual({ quitAction: 'ask', resumeInterruptedOnStart: false });
    client.close();
  });

  it('a desktop app newer than its core says so, and "Restart the core" records the live runs, stops them and ends the core', async () => {
    const client = await connect({ socket: core.info.socket, token: core.info.token });
    await client.call('run.start', {
      name: 'keep-me',
      agents: [{ vendor: 'shell', label: 'sh', cwd: join(root, 'work'), command: ['/bin/sleep', '600'] }],
    });
    useCore.getState().connected(client);
    useCore.getState().setAppVersion('1.10.0');
    await waitFor(() => useCore.getState().info, 'core.info after connecting');
    expect(olderCoreReason(useCore.getState())).toBe(
      'The background core runs Baton 1.4.0, older than this app (1.10.0).',
    );

    await useCore.getState().restartCore();
    expect(useCore.getState().restarting).toBe(true);
    await waitFor(() => shutdowns === 1, 'the core to end itself');
    const recorded = JSON.parse(readFileSync(join(root, 'data', 'interrupted.json'), 'utf8')) as {
      reason: string;
      resumeOnStart: boolean;
      runs: unknown[];
    };
    expect(recorded).toMatchObject({ reason: 'restart', resumeOnStart: true });
    expect(recorded.runs).toHaveLength(1);
    client.close();
  });

  it('compares versions part by part', () => {
    expect(compareVersions('1.10.0', '1.9.3')).toBeGreaterThan(0);
    expect(compareVersions('0.1.0', '0.1.0-beta.2')).toBe(0);
    expect(compareVersions('2.0', '2.0.1')).toBeLessThan(0);
    expect(olderCoreReason({ info: null, legacy: true, appVersion: '0.2.0' })).toMatch(/predates this app's protocol/);
  });
});
