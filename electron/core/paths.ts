// Where Baton's own files are: the data directory and the installed package.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `--data-dir`, else BATON_HOME, else ~/.baton. */
export function dataDirFrom(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag ?? env.BATON_HOME ?? join(homedir(), '.baton'));
}

/** The file a running `baton serve` leaves in its data directory so clients find it (mode 0600). */
export const serverFile = (dataDir: string) => join(dataDir, 'server.json');

// Here too so the command line, which may reach the core only through this file, checks server.json before trusting it.
export { checkDataDir, checkServerFile, DataDirError, prepareDataDir } from './store/data-dir.js';

/** The package root, whether running from sources or from `dist/`. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the Baton package root');
    dir = up;
  }
}

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}
