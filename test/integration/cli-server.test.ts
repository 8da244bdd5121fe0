// The `baton` command line as a user runs it: the real `node bin/baton.js` against a real `baton serve` on a temp
// data directory. What is checked is what the user sees (stdout, stderr, the exit code) and what the server holds
// afterwards (the run still there, still running, not renamed, not typed into).

import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { agentByLabel, ask, screenText, startServer, waitFor, type ServerProcess } from '../helpers/server.js';
import {
  runCli,
  expectFailure,
  expectUsageError,
  escapeRegExp,
  strangerHandle,
  resumeAtTerminal,
  useScratchMachines,
  scratch,
} from './cli-helpers.js';

useScratchMachines();

describe('baton against a running server', () => {
  const { root, home, env } = scratch();
  const proj = join(home, 'proj');
  const data = join(home, 'data');
  const dataArgs = ['--data-dir', data];
  let server: ServerProcess;
  let client: RpcClient;

  beforeAll(async () => {
    mkdirSync(proj, { recursive: true });
    server = await startServer(data, env);
    client = await server.connect();
    // `keep`: the run every "does nothing" check looks at afterwards.
    const run = await client.call('run.start', { name: 'keep', agents: [{ vendor: 'shell', label: 'sh', cwd: proj }] });
    await waitFor(
      async () => /[$#] $/m.test(await screenText(client, agentByLabel(run.agents, 'sh').id)),
      'the prompt of the shell agent of keep',
    );
  });

  afterAll(async () => {
    client.close();
    server.child.kill('SIGTERM');
    await server.exited;
  });

  async function keep() {
    return client.call('run.get', { run: 'keep' });
  }

  it('--help after a command deletes, stops, renames, starts and types nothing', async () => {
    const eventsBefore = (await client.call('run.events', { run: 'keep' })).length;
    const tries = [
      ['delete', 'keep', '--help'],
      ['stop', 'keep', '-h'],
      ['rename', 'keep', 'renamed', '--help'],
      ['send', 'keep', 'sh', 'echo typed-despite-help', '--help'],
      ['snapshot', 'keep', '-h'],
      ['resume', 'keep', '--help'],
      ['start', 'second', '--agent', `shell@${proj}`, '--help'],
    ];
    for (const args of tries) {
      const result = await runCli([...args, ...dataArgs], env);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^usage: baton ${args[0]!}\\b`));
    }
    const run = await keep();
    expect(run.name).toBe('keep');
    expect(agentByLabel(run.agents, 'sh').status).toBe('running');
    expect((await client.call('run.list', {})).map((r) => r.name)).not.toContain('second');
    expect(await screenText(client, agentByLabel(run.agents, 'sh').id)).not.toContain('typed-despite-help');
    expect((await client.call('run.events', { run: 'keep' })).length).toBe(eventsBefore);
  });

  it('serve --help starts no server', async () => {
    const otherData = join(root, 'serve-help-data');
    const result = await runCli(['serve', '--port', '0', '--data-dir', otherData, '--help'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^usage: baton serve/);
    expect(result.stdout).not.toContain('Baton is serving');
    expect(existsSync(join(otherData, 'server.json'))).toBe(false);
  });

  it("usage errors name the command, show that command's usage, exit 2 and change nothing", async () => {
    const cases: [string[], RegExp][] = [
      [['ls', '--agent', 'x'], /ls does not take --agent/],
      [['delete', 'keep', '--json'], /delete does not take --json/],
      [['delete', 'keep', 'extra'], /unexpected argument 'extra'/],
      [['stop', 'keep', '-f'], /unknown option '-f'/],
      [['send', 'keep'], /missing <label>/],
      [['send', 'keep', 'sh'], /missing <text>/],
      [['stop'], /missing <run>/],
      [['start', 'other'], /at least one --agent/],
      [['start', 'other', '--agent', `nosuchvendor@${proj}`], /unknown vendor 'nosuchvendor'/],
      [['inspect', '--cwd'], /--cwd needs a value/],
    ];
    for (const [args, message] of cases) expectUsageError(await runCli([...args, ...dataArgs], env), args[0]!, message);
    const run = await keep();
    expect(agentByLabel(run.agents, 'sh').status).toBe('running');
    expect((await client.call('run.list', {})).map((r) => r.name)).toEqual(['keep']);
  });

  it('expands ~ and ~user in --agent, --cwd and --data-dir; an unknown user is a usage error', async () => {
    const started = await runCli(['start', 'tilde', '--agent', 'shell:home@~/proj', '--data-dir=~/data'], env);
    expect(started.code, started.stderr).toBe(0);
    expect(agentByLabel((await client.call('run.get', { run: 'tilde' })).agents, 'home').cwd).toBe(proj);

    // A caw handle carries no directory: --cwd gives it, and the preview shows where it went.
    const caw = JSON.stringify({
      version: 1,
      provider: 'claude_code',
      session_id: '7f9d2c1e-4b5a-4c3d-9e8f-0a1b2c3d4e5f',
      resume_key: '7f9d2c1e-4b5a-4c3d-9e8f-0a1b2c3d4e5f',
    });
    const inspected = await runCli(['inspect', '--cwd=~/proj', ...dataArgs], env, caw);
    expect(inspected.code, inspected.stderr).toBe(0);
    expect(inspected.stdout).toContain(`(claude) in ${proj}: `);

    // ~user: the home /etc/passwd gives that user, named back in the error about the missing directory.
    const me = userInfo();
    const missing = `baton-cli-test-missing-${randomBytes(4).toString('hex')}`;
    expectFailure(
      await runCli(['start', 'other', '--agent', `claude:planner@~${me.username}/${missing}`, ...dataArgs], env),
      `baton: agent 'planner' (claude): directory ${join(me.homedir, missing)} does not exist\n`,
    );
    expectUsageError(
      await runCli(['start', 'other', '--agent', `claude@~nosuchuser-${missing}/src`, ...dataArgs], env),
      'start',
      new RegExp(`no user 'nosuchuser-${missing}'`),
    );
  });

  it('a directory that does not exist is named with its agent', async () => {
    const missing = join(root, 'not-created');
    expectFailure(
      await runCli(['start', 'nodir', '--agent', `claude:planner@${missing}`, ...dataArgs], env),
      `baton: agent 'planner' (claude): directory ${missing} does not exist\n`,
    );
    expectFailure(
      await runCli(['start', 'nodir', '--agent', `codex@${missing}`, ...dataArgs], env),
      `baton: codex agent: directory ${missing} does not exist\n`,
    );
    expect((await client.call('run.list', {})).map((r) => r.name)).not.toContain('nodir');
  });

  it('a stopped shell agent: screen says it is stopped and shows its last screen; resume says a shell has no conversation', async () => {
    const run = await client.call('run.start', {
      name: 'shells',
      agents: [
        {
          vendor: 'shell',
          label: 'sh',
          cwd: proj,
          command: ['/bin/sh', '-c', 'echo marker-before-stop; exec sleep 600'],
        },
      ],
    });
    await waitFor(
      async () => (await screenText(client, agentByLabel(run.agents, 'sh').id)).includes('marker-before-stop'),
      'the marker on the shell agent of shells',
    );
    const stopped = await runCli(['stop', 'shells', ...dataArgs], env);
    expect(stopped.code, stopped.stderr).toBe(0);

    const screen = await runCli(['screen', 'shells', 'sh', ...dataArgs], env);
    expect(screen.code, screen.stderr).toBe(0);
    expect(screen.stderr).toMatch(/agent 'sh' of 'shells' is stopped: this is its last recorded screen/);
    expect(screen.stdout).toContain('marker-before-stop');

    const resumed = await runCli(['resume', 'shells', ...dataArgs], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('sh (shell): fresh — a shell has no conversation to resume: started a new shell');
  });

  it('inspect says in words what resume would do with each agent', async () => {
    const gone = join(root, 'goes-away');
    mkdirSync(gone);
    const run = await client.call('run.start', {
      name: 'checks',
      agents: [
        { vendor: 'shell', label: 'sh', cwd: proj },
        { vendor: 'claude', label: 'talker', cwd: proj },
        { vendor: 'claude', label: 'quiet', cwd: proj },
        { vendor: 'claude', label: 'gone', cwd: gone },
      ],
    });
    const talker = agentByLabel(run.agents, 'talker');
    await ask(client, talker.id, 'remember the number 4321', 'OK, I will remember 4321.');
    await client.call('run.stop', { run: 'checks' });
    rmSync(gone, { recursive: true });

    const handle = (await runCli(['handle', 'checks', ...dataArgs], env)).stdout.trim();
    expect(handle).toMatch(/^baton1\./);
    const result = await runCli(['inspect', ...dataArgs], env, `${handle}\n`);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/sh \(shell\) in .*: no conversation \(starts anew\)/);
    expect(result.stdout).toMatch(/talker \(claude\) in .*: conversation found/);
    expect(result.stdout).toMatch(/quiet \(claude\) in .*: conversation missing: will start fresh/);
    expect(result.stdout).toMatch(/gone \(claude\) in .*: directory missing: cannot start/);
    expect(result.stdout + result.stderr).not.toContain(handle);
  });

  it('resume of a run this Baton does not know prints the plan and, without --yes, starts nothing', async () => {
    const dir = join(root, 'stranger-dir');
    mkdirSync(dir, { recursive: true });
    const handle = strangerHandle('stranger', [
      { label: 'planner', vendor: 'claude', sessionId: '0f9d2c1e-4b5a-4c3d-9e8f-0a1b2c3d4e5f', cwd: dir },
    ]);
    const before = (await client.call('run.list', {})).map((r) => r.name);

    const refused = await runCli(['resume', ...dataArgs], env, `${handle}\n`);
    expectFailure(
      refused,
      /this run is not in this Baton's history: check the plan above, then run again with --yes \(there is no terminal to ask on\)/,
    );
    // The plan: per agent its label, vendor, directory (new here), check and command.
    expect(refused.stdout).toContain("run 'stranger' (new on this machine)");
    expect(refused.stdout).toMatch(
      new RegExp(
        `^  planner \\(claude\\) in ${escapeRegExp(dir)} \\[new directory\\]: conversation missing: will start fresh — will run: \\S*claude`,
        'm',
      ),
    );
    expect(refused.stdout + refused.stderr).not.toContain(handle);
    expect((await client.call('run.list', {})).map((r) => r.name)).toEqual(before);

    const resumed = await runCli(['resume', '--yes', ...dataArgs], env, `${handle}\n`);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("run 'stranger' (new on this machine)");
    expect(resumed.stdout).toMatch(/^planner \(claude\): fresh — /m);
    const run = await client.call('run.get', { run: 'stranger' });
    expect(agentByLabel(run.agents, 'planner').cwd).toBe(dir);
    await client.call('run.stop', { run: 'stranger' });
  });

  it('resume asks on the terminal when there is one: y resumes, anything else starts nothing', async () => {
    const handleFile = join(root, 'asked.handle');
    writeFileSync(
      handleFile,
      `${strangerHandle('asked', [{ label: 'planner', vendor: 'claude', sessionId: '1f9d2c1e-4b5a-4c3d-9e8f-0a1b2c3d4e5f', cwd: proj }])}\n`,
      { mode: 0o600 },
    );

    const no = await resumeAtTerminal(dataArgs, env, handleFile, 'n');
    expect(no.code, no.output).toBe(1);
    expect(no.output).toMatch(/Resume 'asked' as planned above \(1 agent\)\? \[y\/N\]/);
    expect(no.output).toContain('baton: not resumed: nothing was started');
    expect((await client.call('run.list', {})).map((r) => r.name)).not.toContain('asked');

    const yes = await resumeAtTerminal(dataArgs, env, handleFile, 'y');
    expect(yes.code, yes.output).toBe(0);
    expect(yes.output).toContain('planner (claude): fresh');
    expect((await client.call('run.list', {})).map((r) => r.name)).toContain('asked');
    await client.call('run.stop', { run: 'asked' });
  });

  it('a shell agent from a handle needs --allow-shell, even with --yes', async () => {
    const handle = strangerHandle('shelly', [{ label: 'sh', vendor: 'shell', sessionId: null, cwd: proj }]);
    const refused = await runCli(['resume', '--yes', ...dataArgs], env, `${handle}\n`);
    expectFailure(
      refused,
      /the handle has 1 shell agent \(sh\), which runs a command in the directory the handle names: check the plan above, then add --allow-shell to start it/,
    );
    expect(refused.stdout).toMatch(/^  sh \(shell\) in .*: no conversation \(starts anew\) — will run: /m);
    expect((await client.call('run.list', {})).map((r) => r.name)).not.toContain('shelly');

    const allowed = await runCli(['resume', '--yes', '--allow-shell', ...dataArgs], env, `${handle}\n`);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain('sh (shell): fresh');
    expect(agentByLabel((await client.call('run.get', { run: 'shelly' })).agents, 'sh').status).toBe('running');
    await client.call('run.stop', { run: 'shelly' });
  });

  it('resume refuses a directory others can write, with the reason and without the path in the error', async () => {
    const open = join(root, 'open-dir');
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    const handle = strangerHandle('opened', [
      { label: 'planner', vendor: 'claude', sessionId: '2f9d2c1e-4b5a-4c3d-9e8f-0a1b2c3d4e5f', cwd: open },
    ]);
    const result = await runCli(['resume', '--yes', ...dataArgs], env, `${handle}\n`);
    expectFailure(result, /agent 'planner' cannot start: directory is writable by other users \(mode 0777\)/);
    expect(result.stderr).not.toContain(open);
    // The plan, for the user who pasted the handle, names the directory and the reason.
    expect(result.stdout).toContain(
      `planner (claude) in ${open} [new directory]: cannot start: directory is writable by other users (mode 0777)`,
    );
    expect((await client.call('run.list', {})).map((r) => r.name)).not.toContain('opened');
  });

  it('BATON_URL without BATON_TOKEN (or the reverse) is an error saying what to set, not a fallback to server.json', async () => {
    expect(existsSync(join(data, 'server.json'))).toBe(true);
    expectFailure(
      await runCli(['ls', ...dataArgs], { ...env, BATON_URL: server.url }),
      /BATON_URL is set but BATON_TOKEN is not: set BATON_TOKEN/,
    );
    const tokenOnly = await runCli(['ls', ...dataArgs], { ...env, BATON_TOKEN: server.token });
    expectFailure(tokenOnly, /BATON_TOKEN is set but BATON_URL is not: set BATON_URL/);
    expect(tokenOnly.stderr).not.toContain(server.token);
    const both = await runCli(['ls'], { ...env, BATON_URL: server.url, BATON_TOKEN: server.token });
    expect(both.code, both.stderr).toBe(0);
    expect(both.stdout).toMatch(/^keep\t/m);
  });

  it('resume and inspect refuse bad standard input with one clear line, never a crash', async () => {
    const binary = randomBytes(4096);
    binary[0] = 0;
    const cases: [string | Buffer, RegExp][] = [
      ['', /no handle on standard input/],
      [' \n\n ', /no handle on standard input/],
      [binary, /standard input is not text/],
      [Buffer.alloc(8 << 20, 'A'), /standard input is larger than a handle can be/],
      ['this is not a handle\n', /not a Baton handle/],
    ];
    for (const command of ['resume', 'inspect']) {
      for (const [stdin, message] of cases) {
        const result = await runCli([command, ...dataArgs], env, stdin);
        expectFailure(result, message);
        expect(result.stderr).not.toMatch(/\n\s+at /);
      }
    }
    expect((await client.call('run.list', {})).map((r) => r.name)).toContain('keep');
  });

  it('a handle typed as an argument is refused and never echoed', async () => {
    const { handle } = await client.call('run.handle', { run: 'keep' });
    for (const args of [
      ['resume', handle],
      ['inspect', handle],
      ['delete', handle],
      ['frobnicate', handle],
    ]) {
      const result = await runCli([...args, ...dataArgs], env);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout + result.stderr).not.toContain(handle);
    }
    expect(agentByLabel((await keep()).agents, 'sh').status).toBe('running');
  });
});
