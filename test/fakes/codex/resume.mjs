// `codex resume`: which thread a process continues. `resume <uuid>` the thread of that id (an unknown id, or a
// name, which the fake has none of, prints the real CLI's error and exits 1); `resume --last` the newest thread of
// this cwd; a bare `resume` shows the picker. Node builtins only.
import { UUID, fail } from '../lib/args.mjs';
import { allRollouts, findById, loadRollout } from './rollouts.mjs';

/** Continues the thread `opts` asks to resume, if any; true when the picker shows instead. */
export async function resumeThread(opts, cwd, thread) {
  let found = null;
  if (opts.sessionArg !== null) {
    // UUIDs take precedence; there are no thread names here, so anything else is not found either.
    if (UUID.test(opts.sessionArg)) found = findById(opts.sessionArg.toLowerCase());
    if (!found) {
      await new Promise((r) => setTimeout(r, 150));
      fail(
        `ERROR: No saved session found with ID ${opts.sessionArg}. Run \`codex resume\` without an ID to choose from existing sessions.`,
      );
    }
  } else if (opts.last) {
    found = allRollouts().find((r) => loadRollout(r.path).meta?.cwd === cwd) ?? null;
  } else {
    return true;
  }
  if (found) {
    const conv = loadRollout(found.path);
    if (!conv.meta || typeof conv.meta.id !== 'string') fail(`ERROR: Failed to read session ${found.path}`);
    thread.continueFrom(found.path, conv);
  }
  return false;
}
