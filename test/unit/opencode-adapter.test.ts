// The opencode adapter: its facts, its spawn and resume plans against the sample store (a real opencode 1.18.33
// database, read with sql.js), and what its TUI server says. Its store: opencode-store.test.ts; its follower:
// opencode-follow.test.ts.
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { OPENCODE_FACTS } from '../../electron/core/vendors/opencode/index.js';
import { parseEvent, parseServerSession } from '../../electron/core/vendors/opencode/server.js';
import { OPENCODE_SESSION_ID, displayDataDir, opencodeDataDir } from '../../electron/core/vendors/opencode/store.js';
import { resolveBin } from '../../electron/core/vendors/registry.js';
import { SAMPLE_ID } from './opencode-fixture.js';
import {
  WAL_ONE,
  env,
  opencodeAdapter,
  getAdapter,
  useSample,
  editStore,
  useOpencodeStore,
  ctx,
} from './opencode-adapter-helpers.js';

useOpencodeStore();

describe('opencode adapter: facts', () => {
  it('has the vendor facts as data', () => {
    expect(opencodeAdapter.vendor).toBe('opencode');
    expect(getAdapter('opencode')).toBe(opencodeAdapter);
    expect(opencodeAdapter.submitDelayMs).toBe(300);
    expect(opencodeAdapter.binEnvVar).toBe('BATON_OPENCODE_BIN');
    expect(opencodeAdapter.defaultBin({})).toBe('opencode');
    expect(resolveBin(opencodeAdapter, { BATON_OPENCODE_BIN: '/opt/oc' })).toBe('/opt/oc');
    expect(opencodeAdapter.versionArgs).toEqual(['--version']);
    expect(opencodeAdapter.resumeCommand(SAMPLE_ID)).toEqual(['opencode', '-s', SAMPLE_ID]);
    expect(opencodeAdapter.sessionIdPattern).toBe(OPENCODE_SESSION_ID);
  });

  it('accepts only opencode session ids', () => {
    const p = OPENCODE_SESSION_ID;
    for (const id of [SAMPLE_ID, WAL_ONE, 'ses_0123456789abZZZZZZZZZZZZZZ']) expect(p.test(id), id).toBe(true);
    for (const id of [
      'ses_deb4a1b2c3ff',
      'ses_DEB4A1B2C3FFQm7Lr2VxN9pK4s',
      'msg_214b5c3d4001AbCdEfGhIjKlMn',
      '-s',
      `${SAMPLE_ID}x`,
      ` ${SAMPLE_ID}`,
      'ses_deb4a1b2c3ffQm7Lr2VxN9pK4-',
    ])
      expect(p.test(id), id).toBe(false);
  });

  it('recognises the real "no such session" text, and nothing else', () => {
    const hit = (t: string) => OPENCODE_FACTS.resumeErrorTexts.some((r) => r.test(t));
    expect(hit(`Error: Session not found: ${SAMPLE_ID}`)).toBe(true);
    expect(hit('Error: Session not found')).toBe(true);
    expect(hit('┃ Ask anything…   tab agents  ctrl+p commands')).toBe(false);
  });

  it('finds the data folder like the CLI', () => {
    expect(opencodeDataDir({ HOME: '/h' })).toBe('/h/.local/share/opencode');
    expect(opencodeDataDir({ HOME: '/h', XDG_DATA_HOME: '/x' })).toBe('/x/opencode');
    expect(opencodeDataDir({ HOME: '/h', XDG_DATA_HOME: 'relative' })).toBe('/h/.local/share/opencode');
    expect(displayDataDir({ HOME: '/h' })).toBe('~/.local/share/opencode');
    expect(displayDataDir({ HOME: '/h', XDG_DATA_HOME: '/x' })).toBe('/x/opencode');
  });
});

describe('opencode adapter: spawn and resume plans (argv arrays, never shell strings)', () => {
  const portOf = (argv: string[]) => Number(argv[argv.indexOf('--port') + 1]);

  it('spawnFresh gives the TUI a free port of its own and tells follow() which', async () => {
    const plan = await opencodeAdapter.spawnFresh(ctx({ args: ['-m', 'mock/mock-model'] }), {
      BATON_OPENCODE_BIN: '/opt/oc',
    });
    expect(plan.argv).toEqual(['/opt/oc', '--port', expect.stringMatching(/^\d+$/), '-m', 'mock/mock-model']);
    expect(plan).toMatchObject({ sessionId: null, chosenBy: null, outcome: 'fresh', warning: null, env: {} });
    expect(plan.hints).toEqual({ port: String(portOf(plan.argv)) });
    // The port is free: it can be listened on.
    const server = createServer();
    await new Promise<void>((r) => server.listen(portOf(plan.argv), '127.0.0.1', r));
    await new Promise((r) => server.close(r));
  });

  it("keeps the user's own --port", async () => {
    const plan = await opencodeAdapter.spawnFresh(ctx({ args: ['--port', '4321'] }), {});
    expect(plan.argv).toEqual(['opencode', '--port', '4321']);
    expect(plan.hints).toEqual({ port: '4321' });
    const inline = await opencodeAdapter.spawnFresh(ctx({ args: ['--port=4322'] }), {});
    expect(inline.argv).toEqual(['opencode', '--port=4322']);
    expect(inline.hints).toEqual({ port: '4322' });
  });

  it('resumes a session of this directory with -s <id> and a new port', async () => {
    await useSample();
    const plan = await opencodeAdapter.planResume(
      ctx({ args: ['--agent', 'plan'] }),
      { sessionId: SAMPLE_ID, chosenBy: 'vendor', confirmed: true },
      env,
    );
    expect(plan.argv).toEqual([
      'opencode',
      '-s',
      SAMPLE_ID,
      '--port',
      expect.stringMatching(/^\d+$/),
      '--agent',
      'plan',
    ]);
    expect(plan).toMatchObject({ sessionId: SAMPLE_ID, chosenBy: 'vendor', outcome: 'resumed', warning: null });
    expect(plan.hints).toEqual({ sessionId: SAMPLE_ID, port: String(portOf(plan.argv)) });
  });

  it('starts fresh, with a warning that names the session by 8 characters, when the session is gone', async () => {
    await useSample();
    await editStore('DELETE FROM session WHERE id = ?', [SAMPLE_ID]);
    const plan = await opencodeAdapter.planResume(
      ctx(),
      { sessionId: SAMPLE_ID, chosenBy: 'vendor', confirmed: true },
      env,
    );
    expect(plan.argv).toEqual(['opencode', '--port', expect.stringMatching(/^\d+$/)]);
    expect(plan).toMatchObject({ sessionId: null, chosenBy: null, outcome: 'fresh' });
    expect(plan.warning).toBe(
      'opencode: session ses_deb4… is not in ~/.local/share/opencode any more; starting a fresh conversation in /home/u/proj',
    );
    expect(plan.warning).not.toContain(SAMPLE_ID);
  });

  it('never resumes a session from another directory (the CLI would hang there)', async () => {
    await useSample();
    const plan = await opencodeAdapter.planResume(
      ctx({ cwd: '/home/u/other' }),
      { sessionId: SAMPLE_ID, chosenBy: 'vendor', confirmed: true },
      env,
    );
    expect(plan.outcome).toBe('fresh');
    expect(plan.argv).not.toContain('-s');
    expect(plan.warning).toBe(
      'opencode: session ses_deb4… belongs to /home/u/proj, not /home/u/other; starting a fresh conversation in /home/u/other',
    );
  });

  it('never passes on an id that is not an opencode id, nor an empty one', async () => {
    await useSample();
    for (const bad of ['--help', '-c', 'ses_x', `${SAMPLE_ID} --fork`]) {
      const plan = await opencodeAdapter.planResume(
        ctx(),
        { sessionId: bad, chosenBy: 'vendor', confirmed: true },
        env,
      );
      expect(plan.outcome).toBe('fresh');
      expect(plan.argv).not.toContain(bad);
      expect(plan.warning).toContain('is not an opencode session id');
    }
    const none = await opencodeAdapter.planResume(ctx(), { sessionId: '', chosenBy: 'baton', confirmed: false }, env);
    expect(none.outcome).toBe('fresh');
    expect(none.warning).toContain('no session was saved');
  });
});

describe('opencode: what the TUI server says', () => {
  it('parses sessions from the list and the events', () => {
    const info = { id: SAMPLE_ID, directory: '/home/u/proj', title: 't', time: { created: 5, updated: 6 } };
    expect(parseServerSession(info)).toEqual({ id: SAMPLE_ID, directory: '/home/u/proj', parentId: null, created: 5 });
    expect(parseServerSession({ ...info, parentID: WAL_ONE })?.parentId).toBe(WAL_ONE);
    expect(parseServerSession({ ...info, id: 'nope' })).toBeNull();
    expect(parseServerSession(null)).toBeNull();

    const ev = (type: string, properties: unknown) => JSON.stringify({ type, properties });
    expect(parseEvent(ev('session.created', { info }))).toEqual({
      kind: 'session',
      created: true,
      session: parseServerSession(info),
    });
    expect(parseEvent(ev('session.updated', { info }))).toMatchObject({ kind: 'session', created: false });
    expect(parseEvent(ev('message.updated', { info: { id: 'msg_1', sessionID: SAMPLE_ID, role: 'user' } }))).toEqual({
      kind: 'prompt',
      sessionId: SAMPLE_ID,
    });
    expect(
      parseEvent(ev('message.updated', { info: { id: 'msg_1', sessionID: SAMPLE_ID, role: 'assistant' } })),
    ).toBeNull();
    expect(parseEvent(ev('server.connected', {}))).toBeNull();
    expect(
      parseEvent(
        JSON.stringify({ directory: '/home/u/proj', payload: { type: 'session.created', properties: { info } } }),
      ),
    ).toMatchObject({ kind: 'session' });
    expect(parseEvent('not json')).toBeNull();
  });
});
