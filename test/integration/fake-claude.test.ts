// The fake claude (test/fakes/claude.mjs) in a real PTY, its screen read through a headless xterm.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from 'node-pty';
import type { IPty } from 'node-pty';
import { randomUUID } from 'node:crypto';
import xtermHeadless from '@xterm/headless';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionObservation } from '../../electron/core/vendors/adapter.js';
import { createVendors } from '../../electron/core/vendors/registry.js';

const { Terminal } = xtermHeadless;
const FAKE = fileURLToPath(new URL('../fakes/claude.mjs', import.meta.url));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const claudeAdapter = createVendors().get('claude')!;

let tmp: string;
let home: string;
let config: string;
let cwd: string;
let env: Record<string, string>;
const running: Fake[] = [];

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-fake-claude-')));
  home = join(tmp, 'home');
  config = join(home, '.claude');
  cwd = join(tmp, 'proj');
  await mkdir(home, { recursive: true });
  await mkdir(cwd);
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) base[k] = v;
  env = { ...base, HOME: home, CLAUDE_CONFIG_DIR: config, TERM: 'xterm-256color', FAKE_CLAUDE_DELAY_MS: '50' };
});

afterEach(async () => {
  for (const f of running.splice(0)) f.kill();
  await rm(tmp, { recursive: true, force: true });
});

class Fake {
  readonly proc: IPty;
  readonly term = new Terminal({ cols: 120, rows: 40, allowProposedApi: true });
  exit: { exitCode: number; signal?: number } | null = null;
  private pending = Promise.resolve();

  constructor(args: string[], direct = false) {
    this.proc = direct
      ? pty.spawn(FAKE, args, { name: 'xterm-256color', cols: 120, rows: 40, cwd, env })
      : pty.spawn(process.execPath, [FAKE, ...args], { name: 'xterm-256color', cols: 120, rows: 40, cwd, env });
    this.proc.onData((d) => {
      this.pending = this.pending.then(() => new Promise<void>((r) => this.term.write(d, r)));
    });
    this.proc.onExit((e) => {
      this.exit = e;
    });
    running.push(this);
  }

  get pid(): number {
    return this.proc.pid;
  }

  screen(): string {
    const buf = this.term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buf.length; i++) lines.push(buf.getLine(i)?.translateToString(true) ?? '');
    return lines.join('\n');
  }

  async waitFor(text: string | RegExp, ms = 8000): Promise<void> {
    const end = Date.now() + ms;
    for (;;) {
      await this.pending;
      const s = this.screen();
      if (typeof text === 'string' ? s.includes(text) : text.test(s)) return;
      if (Date.now() > end) throw new Error(`timed out waiting for ${String(text)}; screen:\n${s}`);
      await sleep(25);
    }
  }

  async waitExit(ms = 8000): Promise<{ exitCode: number; signal?: number }> {
    const end = Date.now() + ms;
    while (!this.exit) {
      if (Date.now() > end) throw new Error(`no exit; screen:\n${this.screen()}`);
      await sleep(25);
    }
    await sleep(50);
    await this.pending;
    return this.exit;
  }

  async type(text: string): Promise<void> {
    this.proc.write(text);
    await sleep(200);
    this.proc.write('\r');
  }

  kill(): void {
    if (this.exit) return;
    try {
      this.proc.kill('SIGKILL');
    } catch {
      /* gone */
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function registry(pid: number): Promise<{ sessionId: string; pid: number; cwd: string; status: string } | null> {
  try {
    return JSON.parse(await readFile(join(config, 'sessions', `${pid}.json`), 'utf8'));
  } catch {
    return null;
  }
}

async function transcriptLines(id: string): Promise<Array<Record<string, unknown>>> {
  const dirs = await readdir(join(config, 'projects'));
  for (const d of dirs) {
    const p = join(config, 'projects', d, `${id}.jsonl`);
    if (existsSync(p))
      return (await readFile(p, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
  }
  throw new Error('no transcript');
}

describe('fake claude in a PTY', () => {
  it('prints its version', async () => {
    const f = new Fake(['--version']);
    expect((await f.waitExit()).exitCode).toBe(0);
    expect(f.screen()).toContain('2.1.332 (Claude Code)');
  });

  it('remembers a number, exits, and recalls it after --resume (spawned through node, then directly)', async () => {
    const id = randomUUID();
    const a = new Fake(['--session-id', id, '-n', 'run-1/agent', '--model', 'whatever']);
    await a.waitFor('? for shortcuts');
    const reg = await registry(a.pid);
    expect(reg).toMatchObject({
      pid: a.pid,
      sessionId: id,
      cwd,
      status: 'idle',
      kind: 'interactive',
      version: '2.1.332',
    });
    // No transcript before the first prompt, even with --session-id.
    expect(await claudeAdapter.exists(id, cwd, env)).toBe(false);

    await a.type('remember the number 777');
    await a.waitFor('⏺ OK, I will remember 777.');
    expect(await claudeAdapter.exists(id, cwd, env)).toBe(true);
    const lines = await transcriptLines(id);
    expect(lines.map((l) => l.type)).toEqual([
      'custom-title',
      'agent-name',
      'permission-mode',
      'user',
      'assistant',
      'last-prompt',
    ]);
    expect(lines[0]).toMatchObject({ customTitle: 'run-1/agent', sessionId: id });
    expect(lines[3]).toMatchObject({
      parentUuid: null,
      cwd,
      sessionId: id,
      message: { role: 'user', content: 'remember the number 777' },
    });
    expect(lines[4]).toMatchObject({
      parentUuid: lines[3]!.uuid,
      message: { content: [{ type: 'text', text: 'OK, I will remember 777.' }] },
    });
    const history = (await readFile(join(config, 'history.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(history).toEqual([
      expect.objectContaining({ display: 'remember the number 777', project: cwd, sessionId: id }),
    ]);

    await a.type('/exit');
    expect((await a.waitExit()).exitCode).toBe(0);
    expect(a.screen()).toContain(`claude --resume ${id}`);
    expect(existsSync(join(config, 'sessions', `${a.pid}.json`))).toBe(false);

    // Resumed, spawned directly through its shebang.
    const b = new Fake(['--resume', id], true);
    await b.waitFor('? for shortcuts');
    expect(b.screen()).toContain('> remember the number 777');
    expect((await registry(b.pid))?.sessionId).toBe(id);
    await b.type('what number did I ask you to remember');
    await b.waitFor('⏺ The number is 777.');
    await b.type('/exit');
    expect((await b.waitExit()).exitCode).toBe(0);
    expect((await transcriptLines(id)).filter((l) => l.type === 'user')).toHaveLength(2);

    // A fresh control run does not know it.
    const c = new Fake([]);
    await c.waitFor('? for shortcuts');
    await c.type('what number did I ask you to remember');
    await c.waitFor('⏺ I do not know any number.');
  });

  it('resumes by custom title, and shows the picker (without exiting) for an unknown one', async () => {
    const id = randomUUID();
    const a = new Fake(['--session-id', id, '-n', 'my run/label']);
    await a.waitFor('? for shortcuts');
    await a.type('remember the number 4321');
    await a.waitFor('OK, I will remember 4321.');
    await a.type('/exit');
    await a.waitExit();

    const b = new Fake(['--resume', 'my run/label']);
    await b.waitFor('? for shortcuts');
    expect((await registry(b.pid))?.sessionId).toBe(id);
    await b.type('which number');
    await b.waitFor('The number is 4321.');

    const c = new Fake(['--resume', 'nosuchname']);
    await c.waitFor('No sessions match');
    expect(c.screen()).toContain('Resume session');
    await sleep(500);
    expect(c.exit).toBeNull();
  });

  it('fails an unknown id with the real error text and exit code 1', async () => {
    const id = randomUUID();
    const f = new Fake(['--resume', id]);
    expect((await f.waitExit()).exitCode).toBe(1);
    expect(f.screen()).toContain(`No conversation found with session ID: ${id}`);
    expect(claudeAdapter.resumeErrorTexts.some((r) => r.test(f.screen()))).toBe(true);
  });

  it('rejects bad --session-id uses', async () => {
    const bad = new Fake(['--session-id', 'not-a-uuid']);
    expect((await bad.waitExit()).exitCode).toBe(1);
    expect(bad.screen()).toContain('Error: Invalid session ID. Must be a valid UUID.');

    const id = randomUUID();
    const both = new Fake(['--session-id', id, '--resume', randomUUID()]);
    expect((await both.waitExit()).exitCode).toBe(1);
    expect(both.screen()).toContain('Error: --session-id with --continue or --resume also needs --fork-session.');

    const a = new Fake(['--session-id', id]);
    await a.waitFor('? for shortcuts');
    await a.type('hello');
    await a.waitFor('⏺ I do not know any number.');
    const again = new Fake(['--session-id', id]);
    expect((await again.waitExit()).exitCode).toBe(1);
    expect(again.screen()).toContain(`Error: Session ID ${id} is already in use.`);
  });

  it('follows /clear through the registry, and handles paste, burst, backspace and Ctrl-C', async () => {
    const f = new Fake([], true);
    await f.waitFor('? for shortcuts');
    const seen: SessionObservation[] = [];
    const stop = claudeAdapter.follow({ pid: f.pid, cwd, hints: {}, spawnedAt: Date.now() }, env, (s) => seen.push(s));
    try {
      const first = (await registry(f.pid))?.sessionId;
      expect(first).toMatch(UUID);

      // Bracketed paste inserts text and never submits; Enter then does.
      f.proc.write('\x1b[200~remember the number 55\x1b[201~');
      await f.waitFor('❯ remember the number 55');
      await sleep(150);
      expect(f.screen()).not.toContain('⏺');
      f.proc.write('\r');
      await f.waitFor('⏺ OK, I will remember 55.');
      await waitUntil(() => seen.some((s) => s.sessionId === first && s.confirmed));

      // A burst with Enter is submitted; backspace and arrows edit.
      f.proc.write('which numbex\x7fr\x1b[D\x1b[C\r');
      await f.waitFor('⏺ The number is 55.');
      expect(f.screen()).toContain('> which number');

      await f.type('/clear');
      await waitUntil(async () => {
        const r = await registry(f.pid);
        return r !== null && r.sessionId !== first;
      });
      const second = (await registry(f.pid))!.sessionId;
      expect(second).toMatch(UUID);
      await waitUntil(() => seen.some((s) => s.sessionId === second));
      expect(seen.at(-1)).toEqual({ sessionId: second, confirmed: false });
      await f.type('what number');
      await f.waitFor('⏺ I do not know any number.');
      await waitUntil(() => seen.some((s) => s.sessionId === second && s.confirmed));

      f.proc.write('\x03');
      await f.waitFor('Press Ctrl-C again to exit');
      expect(f.exit).toBeNull();
      f.proc.write('\x03');
      expect((await f.waitExit()).exitCode).toBe(0);
      expect(existsSync(join(config, 'sessions', `${f.pid}.json`))).toBe(false);
    } finally {
      stop();
    }
  });

  it('removes its registry on SIGTERM but not on SIGKILL', async () => {
    const a = new Fake([]);
    await a.waitFor('? for shortcuts');
    expect(await registry(a.pid)).not.toBeNull();
    a.proc.kill('SIGTERM');
    await a.waitExit();
    expect(existsSync(join(config, 'sessions', `${a.pid}.json`))).toBe(false);

    const b = new Fake([]);
    await b.waitFor('? for shortcuts');
    b.proc.kill('SIGKILL');
    await b.waitExit();
    expect(existsSync(join(config, 'sessions', `${b.pid}.json`))).toBe(true);
  });
});

async function waitUntil(cond: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(25);
  }
}
