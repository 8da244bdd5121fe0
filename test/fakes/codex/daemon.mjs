// The fake Codex daemon (`codex app-server --managed-daemon`): started by the TUI unless told not to, forked off so
// that it is re-parented (ppid 1) and outlives the TUI, and holding the thread's writer lock in the TUI's place.
// It runs the fake's own entry script (`entry`), so a process listing shows it as the real one shows the binary.
// Node builtins only.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { home } from './home.mjs';

/** Has `entry` launch a daemon that holds `lockPath` (the launcher exits at once: see launchDaemon). */
export function startDaemon(entry, lockPath) {
  const child = spawn(
    process.execPath,
    [
      entry,
      '--fake-daemon-launch',
      'app-server',
      '--listen',
      'unix://',
      '--managed-daemon',
      '--codex-home',
      home,
      '--hold',
      lockPath,
    ],
    { detached: true, stdio: 'ignore', env: process.env },
  );
  child.unref();
}

/** The launcher (`--fake-daemon-launch …args`): forks the daemon off and exits at once, so the daemon is re-parented. */
export function launchDaemon(entry, args) {
  const child = spawn(process.execPath, [entry, '--fake-daemon', ...args], {
    detached: true,
    stdio: 'ignore',
    env: process.env,
  });
  child.unref();
  process.exit(0);
}

/** The daemon (`--fake-daemon app-server … [--hold <lock>]…`): holds each lock open until its time is up. */
export function runDaemon(args) {
  const held = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--hold' && args[i + 1]) {
      try {
        held.push(fs.openSync(args[++i], 'a'));
      } catch {
        /* ignore */
      }
    }
  }
  try {
    fs.mkdirSync(home, { recursive: true });
    fs.appendFileSync(path.join(home, 'fake-daemon.log'), `${process.pid} started\n`);
  } catch {
    /* ignore */
  }
  process.on('SIGHUP', () => {}); // a daemon: the terminal going away does not concern it
  const ttl = Number(process.env.FAKE_CODEX_DAEMON_TTL_MS ?? 600_000);
  setTimeout(() => process.exit(0), ttl);
  setInterval(() => {}, 60_000);
  void held;
}
