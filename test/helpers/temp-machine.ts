// A test's own machine in a temp directory: the HOME every agent sees (with the fake vendor CLIs: testEnv), Baton's
// data directory and a project directory for the agents. The one way a test that starts a core sets these up.
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, testEnv } from './server.js';

export interface TempMachine {
  /** The temp directory holding the rest, by its real path (the core records real paths); the test removes it. */
  readonly root: string;
  readonly home: string;
  /** Baton's data directory (`<root>/data`), made by the core that uses it. */
  readonly data: string;
  /** A project directory (`<root>/work`), made: where the test's agents work. */
  readonly work: string;
  /** testEnv of `home`, plus what the test adds (given `home` when what it adds lies in it). */
  readonly env: Record<string, string>;
}

export function tempMachine(
  prefix: string,
  extraEnv: Record<string, string> | ((home: string) => Record<string, string>) = {},
): TempMachine {
  const root = realpathSync(tempDir(prefix));
  const home = join(root, 'home');
  const work = join(root, 'work');
  mkdirSync(work);
  const env = testEnv(home, typeof extraEnv === 'function' ? extraEnv(home) : extraEnv);
  return { root, home, data: join(root, 'data'), work, env };
}
