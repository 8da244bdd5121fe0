// The thread this fake Codex process writes: its id (minted at start, never chosen), the writer lock
// `thread-writer-locks/<id>.lock` created at once and kept OPEN by whoever owns the thread (this process, or the
// daemon), and the rollout, which appears only with the first turn (session_meta first) and to which a resumed
// thread appends under the same id. Node builtins only.
import fs from 'node:fs';
import path from 'node:path';
import { configValue, VERSION } from './options.mjs';
import { locksDir, rolloutPath, uuidv7 } from './home.mjs';
import { startDaemon } from './daemon.mjs';

/**
 * The thread of a process run in `cwd` with `opts`; no thread yet (see `renew` and `continueFrom`). With
 * `useDaemon`, the daemon (started from `entry`) holds the lock instead of this process.
 */
export function createThread({ opts, cwd, useDaemon, entry }) {
  const thread = {
    id: null,
    createdAt: null,
    rollout: null, // path once written
    rolloutFd: null,
    lockFd: null,
    ordinal: 0,
    turns: [],
    envSent: false,
    resumed: false,
    /** This process's running token total (a resumed process starts its own at zero, like the real CLI). */
    usage: null,

    /** A new thread (at start, and on /new): the old one's files are closed. */
    renew() {
      thread.close();
      thread.id = uuidv7();
      thread.createdAt = new Date();
      thread.rollout = null;
      thread.ordinal = 0;
      thread.turns = [];
      thread.envSent = false;
      thread.resumed = false;
      openLock(thread.id);
    },

    /** Continues the thread of rollout `file`, whose session_meta and conversation are `conv` (see loadRollout). */
    continueFrom(file, conv) {
      thread.id = conv.meta.id;
      thread.createdAt = new Date(conv.meta.timestamp ?? Date.now());
      thread.rollout = file;
      thread.ordinal = conv.ordinal;
      thread.turns = conv.turns;
      thread.envSent = true;
      thread.resumed = true;
      openLock(thread.id);
    },

    /** Closes the lock and the rollout this process holds open. */
    close() {
      for (const k of ['lockFd', 'rolloutFd']) {
        if (thread[k] !== null) {
          try {
            fs.closeSync(thread[k]);
          } catch {
            /* already closed */
          }
          thread[k] = null;
        }
      }
    },

    /** Appends one rollout line of `type`, with its timestamp and the next ordinal. */
    line(type, payload) {
      const obj = { timestamp: new Date().toISOString(), ordinal: thread.ordinal++, type, payload };
      fs.writeSync(thread.rolloutFd, `${JSON.stringify(obj)}\n`);
    },

    /** Opens the rollout for appending; a thread's first turn creates it, session_meta first. */
    ensureRollout() {
      if (thread.rolloutFd !== null) return;
      if (thread.rollout) {
        thread.rolloutFd = fs.openSync(thread.rollout, 'a');
        return;
      }
      thread.rollout = rolloutPath(thread.createdAt, thread.id);
      fs.mkdirSync(path.dirname(thread.rollout), { recursive: true });
      thread.rolloutFd = fs.openSync(thread.rollout, 'a');
      thread.line('session_meta', {
        session_id: thread.id,
        id: thread.id,
        timestamp: thread.createdAt.toISOString(),
        cwd,
        runtime_workspace_roots: [cwd],
        originator: 'codex_cli_rs',
        cli_version: VERSION,
        source: 'cli',
        thread_source: 'user',
        model_provider: configValue(opts, 'model_provider')?.replace(/^"|"$/g, '') ?? 'openai',
        base_instructions: { text: '(fake codex)' },
        history_mode: 'paginated',
      });
    },
  };

  function openLock(id) {
    fs.mkdirSync(locksDir, { recursive: true });
    const lockPath = path.join(locksDir, `${id}.lock`);
    if (useDaemon) {
      // The daemon owns the thread: it holds the lock, the TUI does not.
      startDaemon(entry, lockPath);
      fs.closeSync(fs.openSync(lockPath, 'a'));
      return;
    }
    thread.lockFd = fs.openSync(lockPath, 'w');
    fs.writeSync(thread.lockFd, `${process.pid}\n`);
  }

  return thread;
}
