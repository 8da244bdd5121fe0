// Asks the core whether each typed or picked directory is in a git repository (worktree.inspect), 300 ms after the
// directories stop changing, once per directory while the dialog is open. Start waits for the answers it still
// needs, so an agent never gets an isolation the user could not see.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useBaton } from '../state/store.js';
import { errorMessage } from './format.js';
import { validateCwd } from './validate.js';
import type { RepoState } from './worktree-spec.js';

const DEBOUNCE_MS = 300;

/** What the dialog asks about: a directory here, or one on a host (inspected by that host's core, docs/hosts.md). */
export function repoKey(host: string, cwd: string): string {
  return host && cwd ? `${host}\n${cwd}` : cwd;
}

function fromKey(key: string): { host: string; cwd: string } {
  const at = key.indexOf('\n');
  return at < 0 ? { host: '', cwd: key } : { host: key.slice(0, at), cwd: key.slice(at + 1) };
}

const askable = (key: string) => key !== '' && validateCwd(fromKey(key).cwd) === null;

export interface RepoInspections {
  /** What is known of `cwd` now (undefined: not asked yet). */
  of(cwd: string): RepoState | undefined;
  /** The answers for these directories, asking now for any not asked yet. */
  settle(cwds: readonly string[]): Promise<Map<string, RepoState>>;
}

/** `cwds`: keys from `repoKey`, as are the arguments of `of` and `settle`. */
export function useRepoInspections(cwds: readonly string[]): RepoInspections {
  const inspect = useBaton((s) => s.inspectWorktree);
  const connected = useBaton((s) => s.status === 'connected');
  const [known, setKnown] = useState<Readonly<Record<string, RepoState>>>({});
  const asked = useRef(new Map<string, Promise<RepoState>>());

  const ask = useCallback(
    (cwd: string): Promise<RepoState> => {
      const old = asked.current.get(cwd);
      if (old) return old;
      setKnown((k) => ({ ...k, [cwd]: { state: 'checking' } }));
      const where = fromKey(cwd);
      const answer = inspect(where.cwd, where.host || undefined).then(
        (repo): RepoState => (repo ? { state: 'repo', repo } : { state: 'none' }),
        (err: unknown): RepoState => ({ state: 'error', message: errorMessage(err) }),
      );
      asked.current.set(cwd, answer);
      void answer.then((result) => {
        // A failed check is asked again next time (the core was reconnecting, say).
        if (result.state === 'error') asked.current.delete(cwd);
        setKnown((k) => ({ ...k, [cwd]: result }));
      });
      return answer;
    },
    [inspect],
  );

  const usable = JSON.stringify([...new Set(cwds.filter(askable))].sort());
  useEffect(() => {
    if (usable === '[]' || !connected) return;
    const timer = setTimeout(() => {
      for (const cwd of JSON.parse(usable) as string[]) void ask(cwd);
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [usable, connected, ask]);

  const settle = useCallback(
    async (dirs: readonly string[]) => {
      const wanted = [...new Set(dirs.filter(askable))];
      const answers = await Promise.all(wanted.map((c) => ask(c)));
      return new Map(wanted.map((c, i) => [c, answers[i]!]));
    },
    [ask],
  );

  return { of: (cwd) => known[cwd], settle };
}
