#!/usr/bin/env node
// The "native" half of the fake Codex CLI (docs/vendors.md §2), started by test/fakes/codex.mjs as the real
// bin/codex.js starts the Rust binary. Faithful where Baton depends on it:
// - the thread id (UUIDv7) is minted at start and cannot be chosen; `$CODEX_HOME/thread-writer-locks/<id>.lock`
//   is created at once and kept OPEN by this process (visible in /proc/<pid>/fd);
// - the rollout `sessions/YYYY/MM/DD/rollout-<local ts>-<id>.jsonl` (LOCAL time) appears only after the first turn:
//   session_meta first, then turn_context / response_item / event_msg lines as the real CLI writes them;
// - `resume <uuid>` appends to the same file under the same id; an unknown id or name prints the real error, exit 1;
// - a background "daemon" (detached, outlives the TUI, holds the lock instead of the TUI) is started unless
//   `--no-daemon` or `-c features.daemon_auto_start=false` / `--disable daemon_auto_start` is given;
// - raw-mode TUI with echo, footer `? for shortcuts`; text and Enter in one burst is a paste (not submitted);
//   text, a pause, then Enter is submitted; `/quit`, `/exit`, `/new`; a deterministic "remember the number N" model.
// The parts live in test/fakes/codex/: options, home (the file layout), thread, rollouts, resume, turn, screen,
// daemon. This file stays the process both the wrapper and the daemon run, as tests find it by its name.
// Node builtins only.
import { fileURLToPath } from 'node:url';
import { realCwd } from './lib/fsutil.mjs';
import { launchDaemon, runDaemon } from './codex/daemon.mjs';
import { parseOptions, usesDaemon, VERSION } from './codex/options.mjs';
import { resumeThread } from './codex/resume.mjs';
import { createScreen } from './codex/screen.mjs';
import { createThread } from './codex/thread.mjs';

/** This script: the daemon runs it too, so a process listing shows the daemon as the same program. */
const entry = fileURLToPath(import.meta.url);

if (process.argv[2] === '--fake-daemon') runDaemon(process.argv.slice(3));
if (process.argv[2] === '--fake-daemon-launch') launchDaemon(entry, process.argv.slice(3));
if (!process.argv[2]?.startsWith('--fake-daemon')) await main();

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  if (opts.version) {
    process.stdout.write(`codex-cli ${VERSION}\n`);
    process.exit(0);
  }
  if (opts.help) {
    process.stdout.write('Codex CLI\n\nUsage: codex [OPTIONS] [PROMPT]\n       codex [OPTIONS] <COMMAND> [ARGS]\n');
    process.exit(0);
  }
  if (opts.cd) process.chdir(opts.cd);
  const cwd = realCwd();

  const thread = createThread({ opts, cwd, useDaemon: usesDaemon(opts), entry });
  const picker = opts.sub === 'resume' && (await resumeThread(opts, cwd, thread));
  if (thread.id === null && !picker) thread.renew();

  createScreen({ thread, opts, cwd, picker }).start();
}
